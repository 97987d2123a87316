// One 3MF model part (an XML file in the package) into objects, colour groups and build items.
import { ModelParseError } from './errors.ts';
import { GrowableFloat32, GrowableInt32 } from './growable.ts';
import { cursor, readInt, readNumber } from './numbers.ts';
import { addBeams, type Beams } from './beam-lattice.ts';
import { isUnitName, type UnitName } from './units.ts';
import { END, EOF, START, XmlScanner } from './xml.ts';

/** Row-vector affine 3×4 as in the spec: m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32. */
export type Transform = Float64Array;

export interface MeshObject {
  kind: 'mesh';
  vertices: Float32Array;
  triangles: Int32Array;
  /** Packed RGBA (0xRRGGBBAA) per triangle corner, when any triangle of it has a colour. */
  colors?: Uint32Array;
  /** The first of the triangles drawn for a beam lattice's struts, which follow the mesh's own. */
  strutsFrom?: number;
}

export interface Reference {
  objectId: number;
  path: string | null;
  transform: Transform | null;
}

export interface ComponentsObject {
  kind: 'components';
  components: Reference[];
}

export interface ModelPart {
  unit: UnitName;
  objects: Map<number, MeshObject | ComponentsObject>;
  build: Reference[];
  warnings: string[];
}

/** Colours are unknown for triangles without a property: a neutral light grey reads as "no colour". */
export const NO_COLOR = 0xc8c8c8ff;

function parseColor(text: string | null): number {
  const match = /^#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?$/.exec(text?.trim() ?? '');
  if (!match) return NO_COLOR;
  return ((parseInt(match[1], 16) << 8) | parseInt(match[2] ?? 'ff', 16)) >>> 0;
}

class PartReader {
  readonly xml: XmlScanner;
  readonly part: ModelPart = { unit: 'millimeter', objects: new Map(), build: [], warnings: [] };
  readonly groups = new Map<number, Uint32Array>();
  readonly onProgress?: (fraction: number) => void;
  sawTextures = false;

  constructor(bytes: Uint8Array, name: string, onProgress?: (fraction: number) => void) {
    this.xml = new XmlScanner(bytes, name);
    this.onProgress = onProgress;
  }

  int(name: string, fallback: number): number {
    const n = this.xml.find(name);
    if (n < 0) return fallback;
    const value = readInt(this.xml.bytes, this.xml.valueStart(n));
    if (value !== value || cursor.end !== this.xml.valueEnd(n)) this.xml.fail('BAD_XML', `${name}="…" is not an integer`, this.xml.valueStart(n));
    return value;
  }

  float(name: string): number {
    const xml = this.xml;
    const n = xml.find(name);
    if (n < 0) xml.fail('BAD_XML', `A <${this.tagName()}> without ${name}`);
    const start = xml.valueStart(n);
    const value = readNumber(xml.bytes, start);
    if (value !== value) {
      const text = xml.string(name)?.trim().toLowerCase() ?? '';
      xml.fail(/^[+-]?(nan|inf)/.test(text) ? 'NAN_COORDINATE' : 'BAD_XML', `${name}="${text}" is not a number`, start);
    }
    if (value - value !== 0) xml.fail('NAN_COORDINATE', `${name}="${xml.string(name)}" is not a finite number`, start);
    if (cursor.end !== xml.valueEnd(n)) xml.fail('BAD_XML', `${name}="${xml.string(name)}" is not a number`, start);
    return value;
  }

  index(name: string, count: number): number {
    const v = this.int(name, -1);
    if (v < 0 || v >= count) this.xml.fail('INDEX_OUT_OF_RANGE', `${name}="${v}" but the mesh has ${count} vertices`);
    return v;
  }

  tagName(): string {
    return new TextDecoder().decode(this.xml.bytes.subarray(this.xml.localStart, this.xml.nameEnd));
  }

  transform(): Transform | null {
    const text = this.xml.string('transform');
    if (text === null) return null;
    const values = text.trim().split(/\s+/).map(Number);
    if (values.length !== 12 || values.some((v) => !Number.isFinite(v))) this.xml.fail('BAD_XML', `transform="${text}" is not 12 finite numbers`);
    return Float64Array.from(values);
  }

  reference(): Reference {
    return { objectId: this.int('objectid', -1), path: this.xml.string('path'), transform: this.transform() };
  }

  colorGroup(id: number, group: string, child: string, attribute: string): void {
    const colors: number[] = [];
    const xml = this.xml;
    for (let token = xml.next(); token !== END || !xml.is(group); token = xml.next()) {
      if (token === EOF) xml.fail('TRUNCATED', `The part ends inside a <${group}>`);
      if (token === START && xml.is(child)) colors.push(parseColor(xml.string(attribute)));
    }
    this.groups.set(id, Uint32Array.from(colors));
  }

  mesh(objectPid: number, objectIndex: number): MeshObject {
    const xml = this.xml;
    const vertices = new GrowableFloat32(1024);
    const triangles = new GrowableInt32(1024);
    let colors: GrowableInt32 | null = null;
    let beams: Beams | null = null;
    for (let depth = 1; ; ) {
      const token = xml.next();
      if (token === EOF) xml.fail('TRUNCATED', 'The part ends inside a <mesh>');
      if (token === END) {
        if (--depth === 0) break;
        continue;
      }
      if (!xml.selfClosing) depth++;
      if (xml.is('vertex')) {
        vertices.reserve(3);
        vertices.data[vertices.length++] = this.float('x');
        vertices.data[vertices.length++] = this.float('y');
        vertices.data[vertices.length++] = this.float('z');
      } else if (xml.is('triangle')) {
        const count = vertices.length / 3;
        triangles.reserve(3);
        triangles.data[triangles.length++] = this.index('v1', count);
        triangles.data[triangles.length++] = this.index('v2', count);
        triangles.data[triangles.length++] = this.index('v3', count);
        const pid = this.int('pid', objectPid);
        if (pid >= 0) colors = this.triangleColors(colors, triangles.length / 3 - 1, pid, this.int('p1', objectIndex));
        if (triangles.length % 98304 === 0) this.onProgress?.(xml.i / xml.bytes.length);
      } else if (xml.is('beamlattice')) beams = { radius: this.float('radius'), list: [] };
      else if (xml.is('beam') && beams) {
        const r1 = this.xml.find('r1') >= 0 ? this.float('r1') : beams.radius;
        beams.list.push(this.int('v1', -1), this.int('v2', -1), r1, this.xml.find('r2') >= 0 ? this.float('r2') : r1);
      }
    }
    const ownTriangles = triangles.length / 3;
    if (beams) addBeams(beams, vertices, triangles, this.part.warnings);
    const result: MeshObject = { kind: 'mesh', vertices: vertices.trimmed(), triangles: triangles.trimmed() };
    if (triangles.length / 3 > ownTriangles) result.strutsFrom = ownTriangles;
    if (colors) {
      colors.reserve(triangles.length - colors.length);
      colors.data.fill(NO_COLOR | 0, colors.length, triangles.length);
      colors.length = triangles.length;
      result.colors = new Uint32Array(colors.trimmed().buffer);
    }
    return result;
  }

  /** p1 colours the whole triangle; p2 and p3 (when given) make it a per-vertex gradient. */
  triangleColors(colors: GrowableInt32 | null, triangle: number, pid: number, p1: number): GrowableInt32 | null {
    const group = this.groups.get(pid);
    if (!group) {
      this.sawTextures = true;
      return colors;
    }
    if (!colors) {
      colors = new GrowableInt32(Math.max(1024, triangle * 3 * 2));
      colors.data.fill(NO_COLOR | 0, 0, triangle * 3);
    }
    colors.reserve(3 + triangle * 3 - colors.length);
    colors.data.fill(NO_COLOR | 0, colors.length, triangle * 3);
    const c1 = group[p1] ?? NO_COLOR;
    colors.data[triangle * 3] = c1;
    colors.data[triangle * 3 + 1] = group[this.int('p2', p1)] ?? c1;
    colors.data[triangle * 3 + 2] = group[this.int('p3', p1)] ?? c1;
    colors.length = triangle * 3 + 3;
    return colors;
  }

  object(): void {
    const xml = this.xml;
    const id = this.int('id', -1);
    const pid = this.int('pid', -1);
    const pindex = this.int('pindex', 0);
    if (xml.selfClosing) return;
    for (let token = xml.next(); token !== END || !xml.is('object'); token = xml.next()) {
      if (token === EOF) xml.fail('TRUNCATED', 'The part ends inside an <object>');
      if (token !== START) continue;
      if (xml.is('mesh') && !xml.selfClosing) this.part.objects.set(id, this.mesh(pid, pindex));
      else if (xml.is('components')) this.part.objects.set(id, { kind: 'components', components: [] });
      else if (xml.is('component')) {
        const holder = this.part.objects.get(id);
        if (holder?.kind === 'components') holder.components.push(this.reference());
      }
    }
  }

  read(): ModelPart {
    const xml = this.xml;
    let sawModel = false;
    for (let token = xml.next(); token !== EOF; token = xml.next()) {
      if (token !== START) continue;
      if (xml.is('model')) {
        sawModel = true;
        const unit = xml.string('unit') ?? 'millimeter';
        if (isUnitName(unit)) this.part.unit = unit;
        else xml.fail('BAD_XML', `Unknown unit "${unit}"`);
      } else if (xml.is('object')) this.object();
      else if (xml.is('basematerials') && !xml.selfClosing) this.colorGroup(this.int('id', -1), 'basematerials', 'base', 'displaycolor');
      else if (xml.is('colorgroup') && !xml.selfClosing) this.colorGroup(this.int('id', -1), 'colorgroup', 'color', 'color');
      else if (xml.is('item')) this.part.build.push(this.reference());
    }
    if (!sawModel) throw new ModelParseError('BAD_XML', `${xml.part} has no <model> element.`, { part: xml.part });
    if (this.sawTextures) this.part.warnings.push('Textures and composite materials are not shown.');
    return this.part;
  }
}

export function parseModelPart(bytes: Uint8Array, name: string, onProgress?: (fraction: number) => void): ModelPart {
  return new PartReader(bytes, name, onProgress).read();
}
