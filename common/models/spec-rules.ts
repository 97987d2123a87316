// The rules of the 3MF specifications (the core specification 1.3 with its OPC packaging, the materials
// and properties extension 1.2, and the production extension's multi-part rules) that a 3MF is checked
// against while it is read. A file that breaks one is still drawn as far as it can be; each violation names
// the rule and where it is (part, element, id, line), for the model's details, the upload check and
// `printdesk inspect --json`. A print service that validates 3MF as the 3MF Consortium's library does may
// refuse such a file at upload, or worse, at production.

export interface SpecRule {
  /** The specification and section, as a reader finds it: "3MF Core 3.4.2". */
  section: string;
  /** What the rule requires, in the specification's words as far as they fit a sentence. */
  statement: string;
  /**
   * `error` where the 3MF Consortium's library (lib3mf) refuses the file, so a service validating with it
   * may too; `warning` where that library reads the file and only warns (metadata, the unit): the file
   * still breaks the specification, and is said to, but counts as valid. The consortium's own sample
   * dodeca_chain_loop_color.3mf gives one metadata name twice.
   */
  severity: 'error' | 'warning';
}

export const SPEC_RULES = {
  'core.start-part': { section: '3MF Core 2.1.1', statement: 'A package MUST have exactly one StartPart relationship, to its one root 3D Model part', severity: 'error' },
  'core.content-type': { section: '3MF Core 2.1.1', statement: 'Each part MUST use an appropriate content type, declared in [Content_Types].xml', severity: 'error' },
  'core.relationship-target': { section: '3MF Core 2.1.1', statement: 'The target part of a relationship MUST be included in the package', severity: 'error' },
  'core.external-target': { section: '3MF Core 2.1.1', statement: '3MF documents MUST NOT reference resources external to the package', severity: 'error' },
  'core.duplicate-relationship': { section: '3MF Core 2.1.1', statement: 'There MUST NOT be more than one relationship of a given type from one part to a second part', severity: 'error' },
  'opc.relationship-id': { section: 'OPC 9.3', statement: 'Each relationship MUST have an Id, unique within its relationships part', severity: 'error' },
  'core.thumbnail': { section: '3MF Core 6.1', statement: 'A thumbnail MUST be a PNG or JPEG part, the target of a thumbnail relationship', severity: 'error' },
  'core.namespace': { section: '3MF Core 2.3.3.1', statement: 'The <model> element MUST be in the 3MF core namespace', severity: 'error' },
  'core.unit': { section: '3MF Core 3.4', statement: 'The unit MUST be micron, millimeter, centimeter, inch, foot or meter', severity: 'warning' },
  'core.required-extension': { section: '3MF Core 3.4', statement: 'requiredextensions MUST list namespace prefixes declared on <model>', severity: 'error' },
  'core.metadata-name': { section: '3MF Core 3.4.1', statement: 'Metadata MUST have a name: one of the well-known names, or a name prefixed with a namespace declared on <model>', severity: 'warning' },
  'core.metadata-duplicate': { section: '3MF Core 3.4.1', statement: 'Producers MUST NOT create multiple metadata elements with the same name', severity: 'warning' },
  'core.resource-id': { section: '3MF Core 3.4.2', statement: 'Each resource MUST have an id, a positive integer below 2^31', severity: 'error' },
  'core.resource-id-unique': { section: '3MF Core 3.4.2', statement: 'Resource IDs MUST be unique within the model, across every kind of resource', severity: 'error' },
  'core.defined-before-use': { section: '3MF Core 3.4', statement: 'Producers MUST define each element prior to referencing it', severity: 'error' },
  'core.required-attribute': { section: '3MF Core schema', statement: 'Attributes the schema marks required MUST be present and well formed', severity: 'error' },
  'core.object-reference': { section: '3MF Core 3.4.3.1, 4.2.1', statement: 'An objectid MUST reference an object with the matching id', severity: 'error' },
  'core.object-type': { section: '3MF Core 4', statement: 'An object type MUST be model, solidsupport, support, surface or other', severity: 'error' },
  'core.object-content': { section: '3MF Core 4', statement: 'An object MUST contain either a mesh or components', severity: 'error' },
  'core.build-other': { section: '3MF Core 4.1', statement: 'Objects of type "other" MUST NOT be referenced in the build, directly or through components', severity: 'error' },
  'core.triangle-vertices': { section: '3MF Core 4.1.4.1', statement: 'The indices v1, v2 and v3 of a triangle MUST be distinct', severity: 'error' },
  'core.pid': { section: '3MF Core 4', statement: 'A pid MUST reference a property group (base materials, colours, texture coordinates, composites or multiproperties)', severity: 'error' },
  'core.pindex': { section: '3MF Core 4, 4.1.4.1', statement: 'A property index (pindex, p1, p2, p3) MUST lie within the referenced property group', severity: 'error' },
  'core.pindex-without-pid': { section: '3MF Core 4', statement: 'pid is REQUIRED if pindex is specified', severity: 'error' },
  'core.components-property': { section: '3MF Core 4', statement: 'Producers MUST NOT assign pid or pindex attributes to objects that contain components', severity: 'error' },
  'core.base-gradient': { section: '3MF Core 4.1.4.1', statement: 'Properties from a <basematerials> group MUST NOT form gradients: p1, p2 and p3 MUST be equal or unspecified', severity: 'error' },
  'core.color': { section: '3MF Core 5.1.1', statement: 'An sRGB colour MUST be written #RRGGBB or #RRGGBBAA', severity: 'error' },
  'core.empty-group': { section: '3MF Core 5, Materials 2–5 (schema)', statement: 'A property group MUST hold at least one entry', severity: 'error' },
  'production.path': { section: '3MF Production 3.1.2', statement: 'Only components in the root model part may carry a path to another model part', severity: 'error' },
  'production.model-relationship': { section: '3MF Production 3.3', statement: 'A model part referenced by path MUST be the target of a 3D model relationship from the root model part', severity: 'error' },
  'materials.required-attribute': { section: '3MF Materials (schema)', statement: 'Attributes the schema marks required MUST be present and well formed', severity: 'error' },
  'materials.texture-content-type': { section: '3MF Materials 6', statement: 'A texture\'s contenttype MUST be image/png or image/jpeg, the content type of its part', severity: 'error' },
  'materials.texture-part': { section: '3MF Materials 6', statement: 'A texture\'s path MUST name a part of the package that is the target of a 3D texture relationship from the model part', severity: 'error' },
  'materials.texture-style': { section: '3MF Materials 6', statement: 'tilestyleu and tilestylev MUST be wrap, mirror, clamp or none; filter auto, linear or nearest', severity: 'error' },
  'materials.texid': { section: '3MF Materials 3', statement: 'A <texture2dgroup>\'s texid MUST reference a <texture2d>', severity: 'error' },
  'materials.composite': { section: '3MF Materials 4', statement: 'A <compositematerials>\' matid MUST reference a <basematerials>, and its matindices materials of it', severity: 'error' },
  'materials.multiproperties': { section: '3MF Materials 5', statement: 'A <multiproperties>\' pids MUST reference property groups: at most one material (first), at most one colour group, no multiproperties; at most one blend method per layer after the first', severity: 'error' },
} as const satisfies Record<string, SpecRule>;

export type SpecRuleId = keyof typeof SPEC_RULES;

/** Where in the package a rule is broken; whichever of these is known. */
export interface SpecWhere {
  part: string;
  /** The element's name as written, e.g. "object" or "m:colorgroup"; for a relationship, "Relationship". */
  element?: string;
  /** The id in question: the element's own (a resource defined twice) or the one it refers to (a pid, an objectid). */
  id?: number;
  line?: number;
}

export interface SpecViolation {
  rule: SpecRuleId;
  severity: SpecRule['severity'];
  /** The rule's section and statement, for a reader without the catalogue. */
  section: string;
  statement: string;
  /** What in this file breaks the rule. */
  message: string;
  where: SpecWhere;
}

/** Violations listed at most: a file can break one rule a million times (once a triangle), and one says enough. */
const LISTED = 50;
/** Of one rule, at most these are listed, so that the others still show. */
const LISTED_PER_RULE = 5;

/** Collects a file's violations as it is read: all are counted, a few of each rule are kept. */
export class Violations {
  readonly listed: SpecViolation[] = [];
  total = 0;
  errors = 0;
  private readonly perRule = new Map<SpecRuleId, number>();

  /** `where` is called only for a violation that is kept (finding a line costs a pass over the part). */
  add(rule: SpecRuleId, message: string, where: () => SpecWhere): void {
    this.total++;
    if (SPEC_RULES[rule].severity === 'error') this.errors++;
    const ofRule = this.perRule.get(rule) ?? 0;
    this.perRule.set(rule, ofRule + 1);
    if (this.listed.length >= LISTED || ofRule >= LISTED_PER_RULE) return;
    this.listed.push({ rule, ...SPEC_RULES[rule], message, where: where() });
  }
}

/** How a model stands against its format's specification (STL and OBJ have none to break). */
export interface Conformance {
  /** No rule is broken that the 3MF Consortium's library refuses a file for (warnings aside). */
  valid: boolean;
  errors: number;
  warnings: number;
  /** A few of each rule broken, errors first. */
  violations: SpecViolation[];
}

export function conformanceOf(violations: Violations | undefined): Conformance {
  if (!violations) return { valid: true, errors: 0, warnings: 0, violations: [] };
  const listed = [...violations.listed].sort((a, b) => Number(a.severity === 'warning') - Number(b.severity === 'warning'));
  return { valid: violations.errors === 0, errors: violations.errors, warnings: violations.total - violations.errors, violations: listed };
}

/** One line naming the first violations, for the warning a user reads before uploading. */
export function describeViolations(violations: readonly SpecViolation[], total = violations.length, shown = 2): string {
  const named = violations.slice(0, shown).map((v) => v.message.replace(/\.$/, ''));
  const more = total - named.length;
  return `${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
