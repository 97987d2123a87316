// A 3MF package: OPC relationships to the root model part, then the build assembled from objects, components
// (possibly in other parts, the production extension's p:path) and transforms, in millimetres. The package
// and its parts are checked against the 3MF specifications on the way (spec-rules.ts): what breaks them is
// said with the model, which is still drawn as far as it can be.
import { ModelParseError } from './errors.ts';
import { Violations } from './spec-rules.ts';
import { NO_COLOR, parseModelPart, type MeshObject, type ModelPart, type Reference, type Transform } from './threemf-part.ts';
import { MODEL_CONTENT_TYPE, PackageParts, partKey } from './threemf-package.ts';
import { checkPartReferences } from './threemf-references.ts';
import type { ParseOptions, RawMesh } from './types.ts';
import { DEFAULT_MAX_TRIANGLES, DEFAULT_MAX_UNZIPPED_BYTES } from './types.ts';
import { UNIT_MM } from './units.ts';
import { soupOf } from './soup.ts';
import { checkDeclaredSizes, extract, readZipDirectory, type ZipEntry } from './zip.ts';

const MAX_DEPTH = 32;
/** Nested components can multiply: bound the walk itself, not only the triangles it finds. */
const MAX_PLACEMENTS = 1_000_000;

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
  readonly violations = new Violations();
  readonly pkg: PackageParts;
  /** Why a reference was left out of the build: when nothing is left, the first one says why. */
  readonly skipped: string[] = [];
  /** Objects of type "other" already said to be in the build. */
  readonly otherInBuild = new Set<string>();
  rootKey = '';
  triangles = 0;
  placements = 0;

  constructor(bytes: Uint8Array, options: ParseOptions) {
    this.bytes = bytes;
    this.options = options;
    const entries = readZipDirectory(bytes);
    checkDeclaredSizes(entries.filter((e) => /\.(model|rels)$/i.test(e.name)), options.maxUnzippedBytes ?? DEFAULT_MAX_UNZIPPED_BYTES);
    this.entries = new Map(entries.map((entry) => [partKey(entry.name), entry]));
    this.pkg = new PackageParts(bytes, this.entries, this.violations);
  }

  /** The root model part's name: the StartPart relationship's target, of which there must be one. */
  rootPartName(): string {
    const starts = this.pkg.startParts();
    const where = (line?: number) => () => ({ part: '_rels/.rels', element: 'Relationship', ...(line ? { line } : {}) });
    if (starts.length > 1) this.violations.add('core.start-part', `_rels/.rels names ${starts.length} root model parts (${starts.map((start) => start.target).join(', ')}); the first is read.`, where(starts[1].line));
    const start = starts.find((relationship) => !relationship.external);
    if (start) {
      const type = this.pkg.contentTypeOf(start.target);
      if (type !== null && type !== MODEL_CONTENT_TYPE) this.violations.add('core.content-type', `The root model part ${start.target} has the content type ${type}, not ${MODEL_CONTENT_TYPE}.`, where(start.line));
      // Named as the package writes it, for messages.
      return this.entries.get(start.target)?.name ?? start.target;
    }
    const fallback = [...this.entries.values()].find((entry) => entry.name.endsWith('.model'));
    if (!fallback) throw new ModelParseError('MISSING_PART', 'The package has no 3D model part (no _rels/.rels relationship and no .model file).');
    this.violations.add('core.start-part', `_rels/.rels does not name the root model part; ${fallback.name} is read.`, where());
    this.warnings.push(`The package does not name its model part; read ${fallback.name}.`);
    return fallback.name;
  }

  part(path: string): ModelPart | null {
    const key = partKey(path);
    const cached = this.parts.get(key);
    if (cached) return cached;
    const entry = this.entries.get(key);
    if (!entry) return null;
    const part = parseModelPart(extract(this.bytes, entry, { inflateRaw: this.options.inflateRaw }), entry.name, this.violations, key === this.rootKey, this.options.onProgress);
    this.parts.set(key, part);
    this.warnings.push(...part.warnings);
    return part;
  }

  /** Leaves a reference out of the build: its part or object is not there. */
  skip(message: string, reference: Reference, fromPath: string, said: boolean): void {
    this.skipped.push(message);
    if (!said) this.violations.add('core.object-reference', message, () => ({ part: fromPath, element: 'item', id: reference.objectId, line: reference.line }));
  }

  /**
   * Walks one reference down to meshes, counting triangles before anything big is allocated. A reference
   * to a part or an object that is not there is left out (and said, unless the part's reader said so).
   */
  collect(reference: Reference, fromPath: string, transform: Transform | null, trail: string[]): void {
    const path = reference.path ?? fromPath;
    const key = `${partKey(path)}#${reference.objectId}`;
    if (trail.includes(key)) throw new ModelParseError('BAD_XML', `Object ${reference.objectId} contains itself (components form a cycle).`, { part: path });
    if (++this.placements > MAX_PLACEMENTS) throw new ModelParseError('TOO_LARGE', `The build places objects more than ${MAX_PLACEMENTS} times.`, { part: path });
    if (trail.length >= MAX_DEPTH) throw new ModelParseError('TOO_LARGE', `Components nest deeper than ${MAX_DEPTH} levels.`, { part: path });
    const part = this.part(path);
    if (!part) return this.skip(`The model refers to part "${path}", which is not in the package.`, reference, fromPath, false);
    const object = part.objects.get(reference.objectId);
    // An item or component naming an object of its own part was checked by that part's reader.
    if (!object) return this.skip(`The build refers to object ${reference.objectId}, which ${path} does not define.`, reference, fromPath, reference.path === null);
    if (object.type === 'other' && !this.otherInBuild.has(key)) {
      this.otherInBuild.add(key);
      this.violations.add('core.build-other', `Object ${reference.objectId} of type "other" is in the build${trail.length ? ' as a component' : ''}; it is drawn here, but it is not meant to be printed.`, () => ({ part: path, element: 'object', id: reference.objectId }));
    }
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
    const rootName = this.rootPartName();
    this.rootKey = partKey(rootName);
    const root = this.part(rootName);
    if (!root) throw new ModelParseError('MISSING_PART', `The model refers to part "${rootName}", which is not in the package.`, { part: rootName });
    for (const item of root.build) this.collect(item, rootName, null, []);
    if (root.build.length === 0) this.warnings.push('The build has no items: nothing would be printed.');
    else if (this.instances.length === 0 && this.skipped.length > 0) throw new ModelParseError('MISSING_PART', this.skipped[0]);
    checkPartReferences(this.pkg, this.parts, this.rootKey, this.violations);
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
    const mesh: RawMesh = { vertices, corners, declaredUnit: root.unit, warnings: this.warnings, violations: this.violations, ...(closedParts.length ? { closedParts } : {}) };
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
