// The sides the parsers bench (parsers.bench.ts) times, each as it would be used: ours (parse + all facts,
// or parse + measures), three.js's loaders, a plain Buffer copy, and the positions-only floor of binary STL.
// 3MFLoader needs a DOMParser, which Node lacks: @xmldom/xmldom (already installed with electron-builder)
// with a small querySelectorAll shim stands in.

export type Kind = 'stl-binary' | 'stl-ascii' | 'obj' | '3mf';
export type Implementation = 'ours' | 'ours-measures' | 'three' | 'copy' | 'positions-only';

async function installDomParser(): Promise<void> {
  const { DOMParser } = (await import('@xmldom/xmldom')) as unknown as { DOMParser: new () => { parseFromString(text: string, type: string): object } };
  type Node = { nodeType: number; localName?: string; childNodes: ArrayLike<Node> };
  const collect = (node: Node, name: string, into: Node[]) => {
    for (let i = 0; i < node.childNodes.length; i++) {
      const child = node.childNodes[i];
      if (child.nodeType !== 1) continue;
      if (child.localName === name) into.push(child);
      collect(child, name, into);
    }
  };
  function querySelectorAll(this: Node, selector: string): Node[] {
    let scope: Node[] = [this];
    for (const name of selector.trim().split(/\s+/)) {
      const next: Node[] = [];
      for (const node of scope) collect(node, name, next);
      scope = next;
    }
    return scope;
  }
  const document = new DOMParser().parseFromString('<a><b/></a>', 'application/xml') as { documentElement: object };
  for (const prototype of [Object.getPrototypeOf(document), Object.getPrototypeOf(document.documentElement)]) {
    prototype.querySelectorAll = querySelectorAll;
    prototype.querySelector = function (this: Node, selector: string) {
      return querySelectorAll.call(this, selector)[0] ?? null;
    };
  }
  (globalThis as Record<string, unknown>).DOMParser = DOMParser;
}

/**
 * Given a file's bytes, makes the input of one call untimed and returns the timed call. Each side gets
 * its input as it would in use: three's loaders one ArrayBuffer they only read; ours bytes it owns (as the
 * preview worker and `printdesk inspect` do), a fresh copy per call since binary STL reads in place.
 */
type Parse = (bytes: Uint8Array, name: string) => () => number;

/**
 * The least any binary STL reader returning fresh positions does: one exact-size Float32Array, the 9
 * floats of each facet copied in, no checks. Its time is mostly the new array's pages being mapped.
 */
function positionsOnly(bytes: Uint8Array): number {
  const facets = Math.floor((bytes.length - 84) / 50);
  const positions = new Float32Array(facets * 9);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let t = 0; t < facets; t++) for (let k = 0; k < 9; k++) positions[t * 9 + k] = view.getFloat32(96 + t * 50 + k * 4, true);
  return facets;
}

export async function implementationFor(implementation: Implementation, kind: Kind): Promise<Parse> {
  if (implementation === 'copy') return (bytes) => () => (Buffer.from(bytes), 0);
  if (implementation === 'positions-only') return (bytes) => () => positionsOnly(bytes);
  if (implementation !== 'three') {
    const { parseModel } = await import('../common/models/index.ts');
    // As `printdesk inspect` runs it: 3MF parts inflated by zlib (the app's worker uses the browser's own).
    const { zlibInflateRaw: inflateRaw } = await import('../electron/services/models/zlib-inflate.ts');
    const skipTopology = implementation === 'ours-measures';
    return (bytes, name) => {
      // A copy, not Buffer's slice (a view): the parse may write over it.
      const owned = new Uint8Array(bytes);
      return () => parseModel(owned, name, { skipTopology, inflateRaw, bytesOwned: true }).facts.triangles;
    };
  }
  type Geometry = { index: { count: number } | null; getAttribute(name: string): { count: number } };
  type Group = { traverse(visit: (node: { geometry?: Geometry }) => void): void };
  const trianglesOf = (group: Group) => {
    let count = 0;
    group.traverse((node) => (count += node.geometry ? (node.geometry.index?.count ?? node.geometry.getAttribute('position').count) / 3 : 0));
    return count;
  };
  // The loaders take an ArrayBuffer and only read it: made once per file, outside the timing.
  const buffers = new WeakMap<Uint8Array, ArrayBuffer>();
  const bufferOf = (bytes: Uint8Array) => {
    let buffer = buffers.get(bytes);
    if (!buffer) buffers.set(bytes, (buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer));
    return buffer;
  };
  if (kind === 'stl-binary' || kind === 'stl-ascii') {
    const { STLLoader } = await import('three/examples/jsm/loaders/STLLoader.js');
    return (bytes) => {
      const buffer = bufferOf(bytes);
      return () => new STLLoader().parse(buffer).getAttribute('position').count / 3;
    };
  }
  if (kind === 'obj') {
    const { OBJLoader } = await import('three/examples/jsm/loaders/OBJLoader.js');
    // OBJLoader parses text: decoding it is part of loading, as in its own load().
    return (bytes) => () => trianglesOf(new OBJLoader().parse(new TextDecoder().decode(bytes)) as unknown as Group);
  }
  await installDomParser();
  const { ThreeMFLoader } = await import('three/examples/jsm/loaders/3MFLoader.js');
  return (bytes) => {
    const buffer = bufferOf(bytes);
    return () => trianglesOf(new ThreeMFLoader().parse(buffer) as unknown as Group);
  };
}
