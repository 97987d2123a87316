// The property groups of a 3MF model part, core and materials extension alike: base materials and colour
// groups (whose colours the preview draws), textures and their coordinates, composites and
// multiproperties (checked, not drawn). Each reader stands on the group's start tag, reads to its end,
// defines it in the part's resource table and says whatever breaks the specification.
import type { SpecRuleId, Violations } from './spec-rules.ts';
import { PROPERTY_GROUP, type Expected, type Resource, type ResourceTable } from './threemf-resources.ts';
import { END, EOF, START, type XmlScanner } from './xml.ts';

/** Colours are unknown for triangles without a property: a neutral light grey reads as "no colour". */
export const NO_COLOR = 0xc8c8c8ff;

const TEXTURE2D: Expected = { kinds: new Set(['texture2d']), rule: 'materials.texid', noun: 'a <texture2d>' };
const BASE_MATERIALS: Expected = { kinds: new Set(['basematerials']), rule: 'materials.composite', noun: 'a <basematerials>' };
const MULTI_LAYER: Expected = { ...PROPERTY_GROUP, rule: 'materials.multiproperties' };
const CONTENT_TYPES = new Set(['image/png', 'image/jpeg']);
const TILE_STYLES = new Set(['wrap', 'mirror', 'clamp', 'none']);
const FILTERS = new Set(['auto', 'linear', 'nearest']);
const BLEND_METHODS = new Set(['mix', 'multiply']);
const COLOR = /^#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?$/;
const INDICES = /^\s*\d+(\s+\d+)*\s*$/;

/** A texture as a model part declares it, for the package's check of its part (threemf-package.ts). */
export interface TextureRef {
  id: number | null;
  element: string;
  path: string | null;
  contentType: string | null;
  part: string;
  line: number;
}

export class MaterialsReader {
  readonly textures: TextureRef[] = [];
  private readonly xml: XmlScanner;
  private readonly table: ResourceTable;
  private readonly violations: Violations;

  constructor(xml: XmlScanner, table: ResourceTable, violations: Violations) {
    this.xml = xml;
    this.table = table;
    this.violations = violations;
  }

  private say(rule: SpecRuleId, message: string, id?: number): void {
    this.violations.add(rule, message, this.table.where(this.xml.nameStart, this.xml.elementName(), id));
  }

  /** The value of a required attribute, or null with the violation said. */
  private required(name: string, rule: SpecRuleId = 'materials.required-attribute'): string | null {
    const value = this.xml.string(name);
    if (value === null) this.say(rule, `<${this.xml.elementName()}> has no ${name} attribute.`);
    return value;
  }

  /** Reads to the end of the group, calling `entry` at each child named `child`; returns how many. */
  private entries(group: string, child: string, entry: () => void): number {
    const xml = this.xml;
    let count = 0;
    if (xml.selfClosing) return 0;
    for (let token = xml.next(); token !== END || !xml.is(group); token = xml.next()) {
      if (token === EOF) xml.fail('TRUNCATED', `The part ends inside a <${group}>`);
      if (token === START && xml.is(child)) {
        count++;
        entry();
      }
    }
    return count;
  }

  private closed(resource: Resource, size: number, entryName: string): void {
    resource.size = size;
    if (size === 0) this.violations.add('core.empty-group', `<${resource.element}> holds no <${entryName}>.`, this.table.where(resource.offset, resource.element));
  }

  private colour(attribute: string, rule: SpecRuleId): number {
    const text = this.required(attribute, rule);
    const match = COLOR.exec(text?.trim() ?? '');
    if (text !== null && !match) this.say('core.color', `<${this.xml.elementName()}> ${attribute}="${text}" is not an sRGB colour (#RRGGBB or #RRGGBBAA).`);
    return match ? ((parseInt(match[1], 16) << 8) | parseInt(match[2] ?? 'ff', 16)) >>> 0 : NO_COLOR;
  }

  /** <basematerials> (core) or <colorgroup> (materials): their display colours, packed 0xRRGGBBAA. */
  colours(group: 'basematerials' | 'colorgroup'): Uint32Array {
    const resource = this.table.define(group);
    const colours: number[] = [];
    const [child, attribute] = group === 'basematerials' ? ['base', 'displaycolor'] : ['color', 'color'];
    const rule: SpecRuleId = group === 'basematerials' ? 'core.required-attribute' : 'materials.required-attribute';
    const size = this.entries(group, child, () => {
      if (group === 'basematerials') this.required('name', rule);
      colours.push(this.colour(attribute, rule));
    });
    this.closed(resource, size, child);
    return Uint32Array.from(colours);
  }

  texture(): void {
    const xml = this.xml;
    const resource = this.table.define('texture2d');
    const path = this.required('path');
    const contentType = this.required('contenttype');
    if (contentType !== null && !CONTENT_TYPES.has(contentType.trim())) this.say('materials.texture-content-type', `<${resource.element}> has contenttype="${contentType}"; a texture is image/png or image/jpeg.`);
    for (const [name, allowed] of [['tilestyleu', TILE_STYLES], ['tilestylev', TILE_STYLES], ['filter', FILTERS]] as const) {
      const value = xml.string(name);
      if (value !== null && !allowed.has(value.trim())) this.say('materials.texture-style', `<${resource.element}> has ${name}="${value}", which is not one of ${[...allowed].join(', ')}.`);
    }
    const id = Number(xml.string('id'));
    this.textures.push({ id: Number.isInteger(id) ? id : null, element: resource.element, path, contentType: contentType?.trim() ?? null, part: xml.part, line: xml.lineOf(xml.nameStart) });
    this.entries('texture2d', '\u0000', () => {});
  }

  textureCoordinates(): void {
    const xml = this.xml;
    const resource = this.table.define('texture2dgroup');
    const texid = this.required('texid');
    if (texid !== null) this.referTo(texid, TEXTURE2D, 'texid');
    const size = this.entries('texture2dgroup', 'tex2coord', () => {
      for (const axis of ['u', 'v']) if (xml.string(axis) === null || !Number.isFinite(Number(xml.string(axis)))) this.say('materials.required-attribute', `<${xml.elementName()}> has no number for ${axis}.`);
    });
    this.closed(resource, size, 'tex2coord');
  }

  composites(): void {
    const resource = this.table.define('compositematerials');
    const matid = this.required('matid');
    const base = matid === null ? null : this.referTo(matid, BASE_MATERIALS, 'matid');
    const matindices = this.required('matindices');
    if (matindices !== null && !INDICES.test(matindices)) this.say('materials.required-attribute', `<${resource.element}> matindices="${matindices}" is not a list of indices.`);
    else if (matindices !== null && base && matindices.trim().split(/\s+/).some((index) => Number(index) >= base.size)) {
      this.say('materials.composite', `<${resource.element}> matindices="${matindices}" names a material beyond the ${base.size} of <${base.element}>.`);
    }
    const size = this.entries('compositematerials', 'composite', () => this.required('values'));
    this.closed(resource, size, 'composite');
  }

  multiproperties(): void {
    const xml = this.xml;
    const resource = this.table.define('multiproperties');
    const pids = this.required('pids');
    const layers = pids !== null && INDICES.test(pids) ? pids.trim().split(/\s+/) : [];
    if (pids !== null && layers.length === 0) this.say('materials.required-attribute', `<${resource.element}> pids="${pids}" is not a list of ids.`);
    let colourGroups = 0;
    layers.forEach((pid, layer) => {
      const group = this.referTo(pid, MULTI_LAYER, 'pids');
      if (!group) return;
      const material = group.kind === 'basematerials' || group.kind === 'compositematerials';
      if (group.kind === 'multiproperties') this.say('materials.multiproperties', `<${resource.element}> layers another <${group.element}> (id ${pid}).`);
      else if (material && layer > 0) this.say('materials.multiproperties', `<${resource.element}> has the material <${group.element}> (id ${pid}) as layer ${layer + 1}; a material must be the first layer, and the only one.`);
      else if (group.kind === 'colorgroup' && ++colourGroups > 1) this.say('materials.multiproperties', `<${resource.element}> layers more than one <${group.element}>.`);
    });
    const methods = xml.string('blendmethods')?.trim().split(/\s+/).filter(Boolean) ?? [];
    if (methods.length > Math.max(0, layers.length - 1) || methods.some((method) => !BLEND_METHODS.has(method))) {
      this.say('materials.multiproperties', `<${resource.element}> blendmethods="${methods.join(' ')}" for ${layers.length} layers (at most ${Math.max(0, layers.length - 1)}, each mix or multiply).`);
    }
    const size = this.entries('multiproperties', 'multi', () => {
      const pindices = this.required('pindices');
      if (pindices !== null && !INDICES.test(pindices)) this.say('materials.required-attribute', `<${xml.elementName()}> pindices="${pindices}" is not a list of indices.`);
    });
    this.closed(resource, size, 'multi');
  }

  /** A reference by a text id; an id that is not a number is a missing one. */
  private referTo(text: string, expected: Expected, attribute: string): Resource | null {
    const id = Number(text.trim());
    if (!Number.isInteger(id) || id < 1) {
      this.say('materials.required-attribute', `<${this.xml.elementName()}> ${attribute}="${text}" is not a resource id.`);
      return null;
    }
    return this.table.refer(id, expected, attribute);
  }
}
