// One 3MF model part (an XML file in the package) into objects, colour groups and build items, checked
// against the core specification and the materials extension as it is read (the metadata and the
// property groups in threemf-part-checks.ts and threemf-materials.ts, the ids in threemf-resources.ts).
import { ModelParseError } from './errors.ts';
import { GrowableFloat32, GrowableInt32 } from './growable.ts';
import { addBeams, type Beams } from './beam-lattice.ts';
import { AttributeReader } from './threemf-attributes.ts';
import type { Violations } from './spec-rules.ts';
import { checkMetadata, checkModelElement, OBJECT_TYPES } from './threemf-part-checks.ts';
import { MaterialsReader, NO_COLOR, type TextureRef } from './threemf-materials.ts';
import { OBJECT, PROPERTY_GROUP, ResourceTable, type Resource } from './threemf-resources.ts';
import { isUnitName, type UnitName } from './units.ts';
import { END, EOF, START, XmlScanner } from './xml.ts';

export { NO_COLOR } from './threemf-materials.ts';

export type { Transform } from './threemf-attributes.ts';
import type { Transform } from './threemf-attributes.ts';

export interface MeshObject {
  kind: 'mesh';
  /** The object's type attribute: model, support, other… */
  type: string;
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
  /** Where the reference is, for a violation found when it is followed. */
  line: number;
}

export interface ComponentsObject {
  kind: 'components';
  type: string;
  components: Reference[];
}

/** A part name a model part refers to (a texture, a thumbnail, another model part), and where. */
export interface PartRef {
  path: string;
  line: number;
}

export interface ModelPart {
  /** The part's name as the package writes it. */
  name: string;
  unit: UnitName;
  objects: Map<number, MeshObject | ComponentsObject>;
  build: Reference[];
  warnings: string[];
  textures: TextureRef[];
  /** Object thumbnails (an object's thumbnail attribute). */
  thumbnails: PartRef[];
}

class PartReader extends AttributeReader {
  readonly part: ModelPart;
  readonly groups = new Map<number, Uint32Array>();
  readonly onProgress?: (fraction: number) => void;
  readonly violations: Violations;
  readonly table: ResourceTable;
  readonly materials: MaterialsReader;
  readonly isRoot: boolean;
  /** Property groups by the pid triangles give, once looked up (null: none usable). */
  readonly triangleGroups = new Map<number, Resource | null>();
  sawTextures = false;

  constructor(bytes: Uint8Array, name: string, violations: Violations, isRoot: boolean, onProgress?: (fraction: number) => void) {
    super(new XmlScanner(bytes, name));
    this.part = { name, unit: 'millimeter', objects: new Map(), build: [], warnings: [], textures: [], thumbnails: [] };
    this.violations = violations;
    this.table = new ResourceTable(this.xml, violations);
    this.materials = new MaterialsReader(this.xml, this.table, violations);
    this.isRoot = isRoot;
    this.onProgress = onProgress;
  }

  /** An item's or a component's reference to an object, which must exist (checked when it is followed). */
  reference(): Reference {
    const xml = this.xml;
    const objectId = this.int('objectid', -1);
    if (objectId < 0) this.violations.add('core.required-attribute', `<${xml.elementName()}> has no objectid.`, this.table.where(xml.nameStart, xml.elementName()));
    return { objectId, path: xml.string('path'), transform: this.transform(), line: xml.lineOf(xml.nameStart) };
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
        const v1 = (triangles.data[triangles.length++] = this.index('v1', count));
        const v2 = (triangles.data[triangles.length++] = this.index('v2', count));
        const v3 = (triangles.data[triangles.length++] = this.index('v3', count));
        if (v1 === v2 || v2 === v3 || v1 === v3) this.violations.add('core.triangle-vertices', `Triangle ${triangles.length / 3} names vertex ${v1 === v2 || v1 === v3 ? v1 : v2} twice (v1="${v1}" v2="${v2}" v3="${v3}").`, this.table.where(xml.nameStart, xml.elementName()));
        const pid = this.int('pid', objectPid);
        if (pid >= 0) colors = this.triangleColors(colors, triangles.length / 3 - 1, pid, objectIndex);
        if (triangles.length % 98304 === 0) this.onProgress?.(xml.i / xml.bytes.length);
      } else if (xml.is('beamlattice')) beams = { radius: this.float('radius'), list: [] };
      else if (xml.is('beam') && beams) {
        const r1 = this.xml.find('r1') >= 0 ? this.float('r1') : beams.radius;
        beams.list.push(this.int('v1', -1), this.int('v2', -1), r1, this.xml.find('r2') >= 0 ? this.float('r2') : r1);
      }
    }
    const ownTriangles = triangles.length / 3;
    if (beams) addBeams(beams, vertices, triangles, this.part.warnings);
    const result: MeshObject = { kind: 'mesh', type: 'model', vertices: vertices.trimmed(), triangles: triangles.trimmed() };
    if (triangles.length / 3 > ownTriangles) result.strutsFrom = ownTriangles;
    if (colors) {
      colors.reserve(triangles.length - colors.length);
      colors.data.fill(NO_COLOR | 0, colors.length, triangles.length);
      colors.length = triangles.length;
      result.colors = new Uint32Array(colors.trimmed().buffer);
    }
    return result;
  }

  /** The property group a triangle's pid names, looked up once per pid (its violations said once). */
  triangleGroup(pid: number): Resource | null {
    let group = this.triangleGroups.get(pid);
    if (group === undefined) {
      group = this.table.refer(pid, PROPERTY_GROUP, 'pid');
      this.triangleGroups.set(pid, group);
    }
    return group;
  }

  /**
   * p1 colours the whole triangle; p2 and p3 (when given) make it a per-vertex gradient. A triangle with no
   * property of its own takes its object's (`objectIndex`), whose range the object's check has said.
   */
  triangleColors(colors: GrowableInt32 | null, triangle: number, pid: number, objectIndex: number): GrowableInt32 | null {
    const group = this.triangleGroup(pid);
    const own = this.xml.find('p1') >= 0;
    const p1 = this.int('p1', objectIndex);
    const p2 = this.int('p2', p1);
    const p3 = this.int('p3', p1);
    if (group && own && (p1 >= group.size || p2 >= group.size || p3 >= group.size)) {
      this.violations.add('core.pindex', `Triangle ${triangle + 1} uses properties ${p1}, ${p2}, ${p3} of <${group.element}> ${pid}, which holds ${group.size}.`, this.table.where(this.xml.nameStart, this.xml.elementName(), pid));
    }
    if (group?.kind === 'basematerials' && (p2 !== p1 || p3 !== p1)) {
      this.violations.add('core.base-gradient', `Triangle ${triangle + 1} blends base materials ${p1}, ${p2} and ${p3} of <${group.element}> ${pid}.`, this.table.where(this.xml.nameStart, this.xml.elementName(), pid));
    }
    const palette = this.groups.get(pid);
    if (!palette) {
      if (group) this.sawTextures = true;
      return colors;
    }
    if (!colors) {
      colors = new GrowableInt32(Math.max(1024, triangle * 3 * 2));
      colors.data.fill(NO_COLOR | 0, 0, triangle * 3);
    }
    colors.reserve(3 + triangle * 3 - colors.length);
    colors.data.fill(NO_COLOR | 0, colors.length, triangle * 3);
    const c1 = palette[p1] ?? NO_COLOR;
    colors.data[triangle * 3] = c1;
    colors.data[triangle * 3 + 1] = palette[p2] ?? c1;
    colors.data[triangle * 3 + 2] = palette[p3] ?? c1;
    colors.length = triangle * 3 + 3;
    return colors;
  }

  object(): void {
    const xml = this.xml;
    const resource = this.table.define('object');
    const element = resource.element;
    const id = this.int('id', -1);
    const type = xml.string('type') ?? 'model';
    resource.objectType = type;
    if (!OBJECT_TYPES.has(type)) this.violations.add('core.object-type', `Object ${id} has type="${type}".`, this.table.where(resource.offset, element, id));
    const thumbnail = xml.string('thumbnail');
    if (thumbnail !== null) this.part.thumbnails.push({ path: thumbnail, line: xml.lineOf(resource.offset) });
    const hasPid = xml.find('pid') >= 0;
    const hasPindex = xml.find('pindex') >= 0;
    const pid = this.int('pid', -1);
    const pindex = this.int('pindex', 0);
    if (hasPindex && !hasPid) this.violations.add('core.pindex-without-pid', `Object ${id} has pindex="${pindex}" without a pid.`, this.table.where(resource.offset, element, id));
    const group = hasPid ? this.table.refer(pid, PROPERTY_GROUP, 'pid') : null;
    // Its triangles take this pid unless they give their own: it is looked up, and said, once.
    if (hasPid) this.triangleGroups.set(pid, group);
    if (group && pindex >= group.size) this.violations.add('core.pindex', `Object ${id} uses property ${pindex} of <${group.element}> ${pid}, which holds ${group.size}.`, this.table.where(resource.offset, element, id));
    let content: 'mesh' | 'components' | null = null;
    if (!xml.selfClosing) {
      for (let token = xml.next(); token !== END || !xml.is('object'); token = xml.next()) {
        if (token === EOF) xml.fail('TRUNCATED', 'The part ends inside an <object>');
        if (token !== START) continue;
        if (xml.is('mesh') && !xml.selfClosing) {
          this.part.objects.set(id, { ...this.mesh(pid, pindex), type });
          content = 'mesh';
        } else if (xml.is('components')) {
          this.part.objects.set(id, { kind: 'components', type, components: [] });
          content = 'components';
        } else if (xml.is('component')) this.component(id);
      }
    }
    if (!content) this.violations.add('core.object-content', `Object ${id} has neither a <mesh> nor <components>.`, this.table.where(resource.offset, element, id));
    if (content === 'components' && (hasPid || hasPindex)) this.violations.add('core.components-property', `Object ${id} holds components and has a pid or pindex.`, this.table.where(resource.offset, element, id));
  }

  component(holderId: number): void {
    const holder = this.part.objects.get(holderId);
    const reference = this.reference();
    if (holder?.kind === 'components') holder.components.push(reference);
    if (reference.path !== null && !this.isRoot) this.violations.add('production.path', `A component in ${this.xml.part} refers to ${reference.path}; only the root model part may.`, this.table.where(this.xml.nameStart, this.xml.elementName()));
    // An object of this part: defined before (checked here); one of another part is checked when followed.
    if (reference.path === null && reference.objectId >= 0) this.table.refer(reference.objectId, OBJECT, 'objectid');
  }

  /** A resource the reader has no use for (an extension's): its id still counts among the part's. */
  otherResource(): void {
    if (this.xml.find('id') >= 0) this.table.define(this.tagName());
  }

  read(): ModelPart {
    const xml = this.xml;
    let sawModel = false;
    /** The local names of the elements open around the scanner, for those that matter only where they are. */
    const open: string[] = [];
    const metadata: Set<string>[] = [];
    let prefixes = new Set<string>();
    for (let token = xml.next(); token !== EOF; token = xml.next()) {
      if (token === END) {
        if (open.pop() === 'metadatagroup') metadata.pop();
        continue;
      }
      if (token !== START) continue;
      const parent = open[open.length - 1];
      let consumed = true;
      if (xml.is('model') && open.length === 0) {
        sawModel = true;
        const unit = xml.string('unit') ?? 'millimeter';
        if (isUnitName(unit)) this.part.unit = unit;
        prefixes = checkModelElement(xml, this.violations, this.part.warnings);
        metadata.push(new Set());
        consumed = false;
      } else if (parent === 'resources' && xml.is('object')) this.object();
      else if (parent === 'resources' && (xml.is('basematerials') || xml.is('colorgroup'))) this.groups.set(this.int('id', -1), this.materials.colours(xml.is('basematerials') ? 'basematerials' : 'colorgroup'));
      else if (parent === 'resources' && xml.is('texture2d')) this.materials.texture();
      else if (parent === 'resources' && xml.is('texture2dgroup')) this.materials.textureCoordinates();
      else if (parent === 'resources' && xml.is('compositematerials')) this.materials.composites();
      else if (parent === 'resources' && xml.is('multiproperties')) this.materials.multiproperties();
      else {
        if (parent === 'resources') this.otherResource();
        else if (parent === 'build' && xml.is('item')) {
          const item = this.reference();
          if (item.path === null && item.objectId >= 0) this.table.refer(item.objectId, OBJECT, 'objectid');
          this.part.build.push(item);
        }
        else if (xml.is('metadata') && (parent === 'model' || parent === 'metadatagroup') && this.isRoot) checkMetadata(xml, this.violations, prefixes, metadata[metadata.length - 1]);
        else if (xml.is('metadatagroup') && !xml.selfClosing) metadata.push(new Set());
        consumed = xml.selfClosing;
      }
      if (!consumed) open.push(this.tagName());
    }
    if (!sawModel) throw new ModelParseError('BAD_XML', `${xml.part} has no <model> element.`, { part: xml.part });
    this.table.finish();
    if (this.sawTextures) this.part.warnings.push('Textures and composite materials are not shown.');
    this.part.textures = this.materials.textures;
    return this.part;
  }
}

export function parseModelPart(bytes: Uint8Array, name: string, violations: Violations, isRoot: boolean, onProgress?: (fraction: number) => void): ModelPart {
  return new PartReader(bytes, name, violations, isRoot, onProgress).read();
}
