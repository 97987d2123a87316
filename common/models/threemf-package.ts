// The OPC side of a 3MF package: [Content_Types].xml and the relationships parts, read once and checked
// against the core specification (every part has a content type; every relationship names a part of the
// package, not an outside resource, once, under an Id of its own; a thumbnail is a PNG or JPEG), then asked
// by the model reader for its StartPart and by the checks of what the model parts refer to.
import type { SpecRuleId, Violations } from './spec-rules.ts';
import { EOF, START, XmlScanner } from './xml.ts';
import { extract, type ZipEntry } from './zip.ts';

export const RELATIONSHIP = {
  startPart: 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel',
  thumbnail: 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail',
  texture: 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dtexture',
};
export const MODEL_CONTENT_TYPE = 'application/vnd.ms-package.3dmanufacturing-3dmodel+xml';
export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);
const CONTENT_TYPES_PART = '[content_types].xml';

/** Part names are case-insensitive in OPC and may be written with or without the leading slash. */
export function partKey(path: string): string {
  return path.replace(/^\/+/, '').toLowerCase();
}

export interface Relationship {
  /** The source part's key ('' for the package itself). */
  source: string;
  type: string;
  /** The target part's key, resolved against the source's folder; for an external target, as written. */
  target: string;
  external: boolean;
  /** The relationships part it is written in, and where. */
  rels: string;
  line: number;
}

/** The part a relationships part speaks for: '' (the package) for `_rels/.rels`, `3d/3dmodel.model` for `3d/_rels/3dmodel.model.rels`. */
function sourceOf(relsKey: string): string {
  const match = /^(.*?)_rels\/(.*)\.rels$/.exec(relsKey);
  return match ? `${match[1]}${match[2]}` : '';
}

/** A target relative to its source's folder (OPC part URIs), as a part key. */
function resolveTarget(source: string, target: string): string {
  const base = target.startsWith('/') ? [] : source.split('/').slice(0, -1);
  for (const segment of target.replace(/^\/+/, '').split('/')) {
    if (segment === '..') base.pop();
    else if (segment !== '.' && segment !== '') base.push(segment);
  }
  return base.join('/').toLowerCase();
}

export class PackageParts {
  private readonly bytes: Uint8Array;
  private readonly entries: Map<string, ZipEntry>;
  private readonly violations: Violations;
  private readonly defaults = new Map<string, string>();
  private readonly overrides = new Map<string, string>();
  /** Relationships by their source part's key. */
  private readonly relationships = new Map<string, Relationship[]>();

  constructor(bytes: Uint8Array, entries: Map<string, ZipEntry>, violations: Violations) {
    this.bytes = bytes;
    this.entries = entries;
    this.violations = violations;
    this.readContentTypes();
    for (const key of entries.keys()) if (key.endsWith('.rels')) this.readRelationships(key);
    this.checkParts();
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  contentTypeOf(key: string): string | null {
    const override = this.overrides.get(key);
    if (override !== undefined) return override;
    const dot = key.lastIndexOf('.');
    return dot < 0 ? null : (this.defaults.get(key.slice(dot + 1)) ?? null);
  }

  relationshipsFrom(source: string): Relationship[] {
    return this.relationships.get(source) ?? [];
  }

  private say(rule: SpecRuleId, message: string, part: string, line?: number, element?: string): void {
    this.violations.add(rule, message, () => ({ part, ...(element ? { element } : {}), ...(line !== undefined ? { line } : {}) }));
  }

  private scan(key: string): XmlScanner | null {
    const entry = this.entries.get(key);
    return entry ? new XmlScanner(extract(this.bytes, entry), entry.name) : null;
  }

  private readContentTypes(): void {
    const xml = this.scan(CONTENT_TYPES_PART);
    if (!xml) return this.say('core.content-type', 'The package has no [Content_Types].xml: none of its parts has a content type.', '[Content_Types].xml');
    for (let token = xml.next(); token !== EOF; token = xml.next()) {
      if (token !== START) continue;
      const type = xml.string('ContentType')?.trim().toLowerCase();
      if (type === undefined) continue;
      if (xml.is('Default')) this.defaults.set((xml.string('Extension') ?? '').toLowerCase(), type);
      else if (xml.is('Override')) this.overrides.set(partKey(xml.string('PartName') ?? ''), type);
    }
  }

  private readRelationships(key: string): void {
    const xml = this.scan(key);
    if (!xml) return;
    const source = sourceOf(key);
    const ids = new Set<string>();
    const seen = new Set<string>();
    const list: Relationship[] = [];
    for (let token = xml.next(); token !== EOF; token = xml.next()) {
      if (token !== START || !xml.is('Relationship')) continue;
      const line = xml.lineOf(xml.nameStart);
      const [id, type, written] = [xml.string('Id'), xml.string('Type') ?? '', xml.string('Target') ?? ''];
      if (!id || ids.has(id)) this.say('opc.relationship-id', id ? `Two relationships in ${xml.part} have the Id "${id}".` : `A relationship in ${xml.part} has no Id.`, xml.part, line, 'Relationship');
      if (id) ids.add(id);
      const external = (xml.string('TargetMode') ?? '').toLowerCase() === 'external';
      const relationship: Relationship = { source, type, target: external ? written : resolveTarget(source, written), external, rels: xml.part, line };
      if (external) this.say('core.external-target', `A relationship in ${xml.part} points outside the package, at ${written}.`, xml.part, line, 'Relationship');
      else if (!this.entries.has(relationship.target)) this.say('core.relationship-target', `A relationship in ${xml.part} points at ${written}, which is not in the package.`, xml.part, line, 'Relationship');
      const pair = `${type} ${relationship.target}`;
      if (seen.has(pair)) this.say('core.duplicate-relationship', `${xml.part} relates ${source || 'the package'} to ${written} twice with the same type.`, xml.part, line, 'Relationship');
      seen.add(pair);
      if (type === RELATIONSHIP.thumbnail && !external) this.checkImage(relationship.target, 'core.thumbnail', `The thumbnail ${written}`, xml.part, line);
      list.push(relationship);
    }
    this.relationships.set(source, list);
  }

  /** A thumbnail's or texture's part: a PNG or JPEG, by its content type. */
  checkImage(key: string, rule: SpecRuleId, what: string, part: string, line?: number): void {
    if (!this.entries.has(key)) return;
    const type = this.contentTypeOf(key);
    if (type !== null && !IMAGE_TYPES.has(type)) this.say(rule, `${what} has the content type ${type}, not image/png or image/jpeg.`, part, line);
  }

  /** Every part has a content type (the content types part itself aside, and folders). */
  private checkParts(): void {
    if (this.defaults.size === 0 && this.overrides.size === 0) return;
    for (const [key, entry] of this.entries) {
      if (key === CONTENT_TYPES_PART || key.endsWith('/')) continue;
      if (this.contentTypeOf(key) === null) this.say('core.content-type', `The part ${entry.name} has no content type in [Content_Types].xml.`, entry.name);
    }
  }

  /** The package's StartPart relationships: there must be exactly one. */
  startParts(): Relationship[] {
    return this.relationshipsFrom('').filter((relationship) => relationship.type === RELATIONSHIP.startPart);
  }
}
