// A 3MF package: OPC relationships to the root model part, then the build assembled from objects, components
// (possibly in other parts, the production extension's p:path) and transforms, in millimetres.
import { ModelParseError } from './errors.ts';
import { NO_COLOR, parseModelPart, type MeshObject, type ModelPart, type Reference, type Transform } from './threemf-part.ts';
import type { ParseOptions, RawMesh } from './types.ts';
import { DEFAULT_MAX_TRIANGLES, DEFAULT_MAX_UNZIPPED_BYTES } from './types.ts';
import { UNIT_MM } from './units.ts';
import { soupOf } from './soup.ts';
import { XmlScanner, START, EOF } from './xml.ts';
import { checkDeclaredSizes, extract, readZipDirectory, type ZipEntry } from './zip.ts';

const MODEL_RELATIONSHIP = /\/3dmodel$/;
const MAX_DEPTH = 32;
/** Nested components can multiply: bound the walk itself, not only the triangles it finds. */
const MAX_PLACEMENTS = 1_000_000;

/** Part names are case-insensitive in OPC and may be written with or without the leading slash. */
function partKey(path: string): string {
  return path.replace(/^\/+/, '').toLowerCase();
}

function rootPartName(entries: Map<string, ZipEntry>, bytes: Uint8Array, warnings: string[]): string {
  const rels = entries.get('_rels/.rels');
  if (rels) {
    const xml = new XmlScanner(extract(bytes, rels), '_rels/.rels');
    for (let token = xml.next(); token !== EOF; token = xml.next()) {
      if (token === START && xml.is('Relationship') && MODEL_RELATIONSHIP.test(xml.string('Type') ?? '')) {
        const target = xml.string('Target');
        if (target) return target;
      }
    }
  }
  const fallback = [...entries.keys()].find((name) => name.endsWith('.model'));
  if (!fallback) throw new ModelParseError('MISSING_PART', 'The package has no 3D model part (no _rels/.rels relationship and no .model file).');
  warnings.push(`The package does not name its model part; read ${fallback}.`);
  return fallback;
}

/** Row-vector convention: applying `first` then `then` is first × then. */
function compose(first: Transform | null, then: Transform | null): Transform | null {
  if (!first) return then;
  if (!then) return first;
  const out = new Float64Array(12);
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 3; col++) {
      let sum = row === 3 ? then[9 + col] : 0;
      for (let k = 0; k < 3; k++) sum += first[row * 3 + k] * then[k * 3 + col];
      out[row * 3 + col] = sum;
    }
  }
  return out;
}

function determinant(m: Transform | null): number {
  if (!m) return 1;
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
}

interface Instance {
  mesh: MeshObject;
  transform: Transform | null;
}

class Assembler {
  readonly bytes: Uint8Array;
  readonly entries: Map<string, ZipEntry>;
  readonly parts = new Map<string, ModelPart>();
  readonly options: ParseOptions;
  readonly warnings: string[] = [];
  readonly instances: Instance[] = [];
  triangles = 0;
  placements = 0;

  constructor(bytes: Uint8Array, options: ParseOptions) {
    this.bytes = bytes;
    this.options = options;
    const entries = readZipDirectory(bytes);
    checkDeclaredSizes(entries.filter((e) => /\.(model|rels)$/i.test(e.name)), options.maxUnzippedBytes ?? DEFAULT_MAX_UNZIPPED_BYTES);
    this.entries = new Map(entries.map((entry) => [partKey(entry.name), entry]));
  }

  part(path: string): ModelPart {
    const key = partKey(path);
    const cached = this.parts.get(key);
    if (cached) return cached;
    const entry = this.entries.get(key);
    if (!entry) throw new ModelParseError('MISSING_PART', `The model refers to part "${path}", which is not in the package.`, { part: path });
    const part = parseModelPart(extract(this.bytes, entry, { inflateRaw: this.options.inflateRaw }), entry.name, this.options.onProgress);
    this.parts.set(key, part);
    this.warnings.push(...part.warnings);
    return part;
  }

  /** Walks one reference down to meshes, counting triangles before anything big is allocated. */
  collect(reference: Reference, fromPath: string, transform: Transform | null, trail: string[]): void {
    const path = reference.path ?? fromPath;
    const key = `${partKey(path)}#${reference.objectId}`;
    if (trail.includes(key)) throw new ModelParseError('BAD_XML', `Object ${reference.objectId} contains itself (components form a cycle).`, { part: path });
    if (++this.placements > MAX_PLACEMENTS) throw new ModelParseError('TOO_LARGE', `The build places objects more than ${MAX_PLACEMENTS} times.`, { part: path });
    if (trail.length >= MAX_DEPTH) throw new ModelParseError('TOO_LARGE', `Components nest deeper than ${MAX_DEPTH} levels.`, { part: path });
    const object = this.part(path).objects.get(reference.objectId);
    if (!object) throw new ModelParseError('MISSING_PART', `The build refers to object ${reference.objectId}, which ${path} does not define.`, { part: path });
    const combined = compose(reference.transform, transform);
    if (object.kind === 'components') {
      for (const component of object.components) this.collect(component, path, combined, [...trail, key]);
      return;
    }
    this.triangles += object.triangles.length / 3;
    const limit = this.options.maxTriangles ?? DEFAULT_MAX_TRIANGLES;
    if (this.triangles > limit) throw new ModelParseError('TOO_LARGE', `The build places more than ${limit} triangles.`);
    this.instances.push({ mesh: object, transform: combined });
  }

  read(): RawMesh {
    const rootName = rootPartName(this.entries, this.bytes, this.warnings);
    const root = this.part(rootName);
    for (const item of root.build) this.collect(item, rootName, null, []);
    if (root.build.length === 0) this.warnings.push('The build has no items: nothing would be printed.');
    return this.emit(UNIT_MM[root.unit], root);
  }

  /**
   * One allocation each for the vertex pool and corners (a soup is gathered only when colours, per corner
   * in the viewer, need one); mirrored instances keep their winding.
   */
  emit(scale: number, root: ModelPart): RawMesh {
    const vertexTotal = this.instances.reduce((sum, { mesh }) => sum + mesh.vertices.length, 0);
    const vertices = new Float32Array(vertexTotal);
    const corners = new Int32Array(this.triangles * 3);
    const colored = this.instances.some(({ mesh }) => mesh.colors);
    const colors = colored ? new Uint32Array(this.triangles * 3) : undefined;
    const closedParts: number[] = [];
    let vertexBase = 0, corner = 0;
    for (const { mesh, transform: m } of this.instances) {
      if (mesh.strutsFrom !== undefined) closedParts.push(corner / 3 + mesh.strutsFrom, corner / 3 + mesh.triangles.length / 3);
      const source = mesh.vertices;
      for (let v = 0; v < source.length; v += 3) {
        const x = source[v], y = source[v + 1], z = source[v + 2];
        const at = vertexBase * 3 + v;
        vertices[at] = (m ? x * m[0] + y * m[3] + z * m[6] + m[9] : x) * scale;
        vertices[at + 1] = (m ? x * m[1] + y * m[4] + z * m[7] + m[10] : y) * scale;
        vertices[at + 2] = (m ? x * m[2] + y * m[5] + z * m[8] + m[11] : z) * scale;
      }
      const flip = determinant(m) < 0;
      const triangles = mesh.triangles;
      for (let t = 0; t < triangles.length; t += 3) {
        for (let k = 0; k < 3; k++) {
          const from = flip && k > 0 ? t + 3 - k : t + k;
          const index = vertexBase + triangles[from];
          corners[corner] = index;
          if (colors) colors[corner] = mesh.colors ? mesh.colors[from] : NO_COLOR;
          corner++;
        }
      }
      vertexBase += source.length / 3;
    }
    const mesh: RawMesh = { vertices, corners, declaredUnit: root.unit, warnings: this.warnings, ...(closedParts.length ? { closedParts } : {}) };
    return colors ? { ...mesh, positions: soupOf(vertices, corners), colors: rgbaBytes(colors) } : mesh;
  }
}

/** 0xRRGGBBAA words to R, G, B, A bytes regardless of the machine's endianness. */
function rgbaBytes(packed: Uint32Array): Uint8Array {
  const out = new Uint8Array(packed.length * 4);
  for (let i = 0; i < packed.length; i++) {
    const c = packed[i];
    out[i * 4] = c >>> 24;
    out[i * 4 + 1] = (c >>> 16) & 255;
    out[i * 4 + 2] = (c >>> 8) & 255;
    out[i * 4 + 3] = c & 255;
  }
  return out;
}

export function parse3mf(bytes: Uint8Array, options: ParseOptions): RawMesh {
  return new Assembler(bytes, options).read();
}
