// The resources of one 3MF model part, by id, as the part is read front to back: each id defined once,
// across every kind of resource, and each reference checked against what it must point at. A reference to
// an id not defined yet is kept until the part ends: defined later, it breaks "define before referencing";
// never defined, it points at nothing.
import type { SpecRuleId, SpecWhere, Violations } from './spec-rules.ts';
import type { XmlScanner } from './xml.ts';

/** Resources that properties (pid) may point at, and what each holds (its entries, by index). */
export const PROPERTY_GROUPS = new Set(['basematerials', 'colorgroup', 'texture2dgroup', 'compositematerials', 'multiproperties']);

export interface Resource {
  /** Its element's local name: object, basematerials, colorgroup, texture2d, … */
  kind: string;
  /** Its element's name as written, for messages. */
  element: string;
  /** Entries of a property group (bases, colours, coordinates, composites, multis). */
  size: number;
  offset: number;
  /** Of an object: its type attribute. */
  objectType?: string;
}

/** What a reference must point at, the rule it breaks otherwise, and how to say what it is. */
export interface Expected {
  kinds: ReadonlySet<string>;
  rule: SpecRuleId;
  /** "a property group", "an object", "a <texture2d>"… */
  noun: string;
}

export const OBJECT: Expected = { kinds: new Set(['object']), rule: 'core.object-reference', noun: 'an object' };
export const PROPERTY_GROUP: Expected = { kinds: PROPERTY_GROUPS, rule: 'core.pid', noun: 'a property group' };

interface Pending {
  id: number;
  expected: Expected;
  /** "pid", "objectid", "texid"… */
  attribute: string;
  element: string;
  offset: number;
}

export class ResourceTable {
  private readonly byId = new Map<number, Resource>();
  /** Ids given to more than one resource: a reference to one cannot say which it meant. */
  private readonly duplicated = new Set<number>();
  private readonly pending: Pending[] = [];
  private readonly xml: XmlScanner;
  private readonly violations: Violations;

  constructor(xml: XmlScanner, violations: Violations) {
    this.xml = xml;
    this.violations = violations;
  }

  /** Where in this part the byte at `offset` is, computed only if the violation is kept. */
  where(offset: number, element?: string, id?: number): () => SpecWhere {
    const part = this.xml.part;
    return () => ({ part, ...(element ? { element } : {}), ...(id !== undefined ? { id } : {}), line: this.xml.lineOf(offset) });
  }

  /**
   * Defines the resource the scanner stands on by its `id` attribute (a resource without a valid one is
   * said, and kept under no id). Its size is set once its entries are read.
   */
  define(kind: string): Resource {
    const xml = this.xml;
    const element = xml.elementName();
    const offset = xml.nameStart;
    const resource: Resource = { kind, element, size: 0, offset };
    const text = xml.string('id');
    const id = text !== null && /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
    if (!(id >= 1 && id < 2 ** 31)) {
      this.violations.add('core.resource-id', text === null ? `<${element}> has no id.` : `<${element}> has id="${text}", which is not a positive integer below 2^31.`, this.where(offset, element));
      return resource;
    }
    const earlier = this.byId.get(id);
    if (earlier) {
      this.duplicated.add(id);
      const line = xml.lineOf(earlier.offset);
      this.violations.add('core.resource-id-unique', `Resource id ${id} is used twice: by <${earlier.element}> (line ${line}) and by <${element}>.`, this.where(offset, element, id));
      return resource;
    }
    this.byId.set(id, resource);
    return resource;
  }

  /**
   * The resource `id` (read from `attribute` of the element the scanner stands on) if it is defined already
   * and of an expected kind; null otherwise, with the violation said or kept for the part's end.
   */
  refer(id: number, expected: Expected, attribute: string, element = this.xml.elementName(), offset = this.xml.nameStart): Resource | null {
    const resource = this.byId.get(id);
    if (!resource) {
      this.pending.push({ id, expected, attribute, element, offset });
      return null;
    }
    if (!expected.kinds.has(resource.kind)) {
      if (!this.duplicated.has(id)) this.violations.add(expected.rule, `<${element}> ${attribute}="${id}" points at <${resource.element}>, not ${expected.noun}.`, this.where(offset, element, id));
      return null;
    }
    return resource;
  }

  get(id: number): Resource | undefined {
    return this.byId.get(id);
  }

  /** The part is read: references to ids defined after them, or never, are said. */
  finish(): void {
    for (const { id, expected, attribute, element, offset } of this.pending) {
      const resource = this.byId.get(id);
      if (!resource) this.violations.add(expected.rule, `<${element}> ${attribute}="${id}" points at nothing: no resource has id ${id}.`, this.where(offset, element, id));
      else if (this.duplicated.has(id)) continue;
      else if (!expected.kinds.has(resource.kind)) this.violations.add(expected.rule, `<${element}> ${attribute}="${id}" points at <${resource.element}>, not ${expected.noun}.`, this.where(offset, element, id));
      else this.violations.add('core.defined-before-use', `<${element}> ${attribute}="${id}" refers to <${resource.element}> before it is defined (line ${this.xml.lineOf(resource.offset)}).`, this.where(offset, element, id));
    }
    this.pending.length = 0;
  }
}
