// Checks of a 3MF model part's <model> element and its metadata against the core specification: the
// core namespace, the unit, the required extensions, and each metadata name (well known, or prefixed with
// a namespace the model declares), once per group.
import type { SpecWhere, Violations } from './spec-rules.ts';
import { isUnitName } from './units.ts';
import type { XmlScanner } from './xml.ts';

export const CORE_NAMESPACE = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';
export const OBJECT_TYPES = new Set(['model', 'solidsupport', 'support', 'surface', 'other']);
const WELL_KNOWN_METADATA = new Set(['title', 'designer', 'description', 'copyright', 'licenseterms', 'rating', 'creationdate', 'modificationdate', 'application']);
/** Extensions whose content the parser reads: a file requiring another may hold more than is drawn. */
const READ_EXTENSIONS = new Set([
  'http://schemas.microsoft.com/3dmanufacturing/material/2015/02',
  'http://schemas.microsoft.com/3dmanufacturing/production/2015/06',
  'http://schemas.microsoft.com/3dmanufacturing/beamlattice/2017/02',
]);

function at(xml: XmlScanner): () => SpecWhere {
  const [offset, element] = [xml.nameStart, xml.elementName()];
  return () => ({ part: xml.part, element, line: xml.lineOf(offset) });
}

/** Checks the <model> the scanner stands on; returns the namespace prefixes it declares, by prefix. */
export function checkModelElement(xml: XmlScanner, violations: Violations, warnings: string[]): Set<string> {
  const namespaces = new Map<string, string>();
  for (let n = 0; n < xml.attributeCount; n++) {
    const name = xml.attributeName(n);
    if (name === 'xmlns' || name.startsWith('xmlns:')) namespaces.set(name.slice(6), xml.valueString(n));
  }
  const element = xml.elementName();
  const prefix = element.includes(':') ? element.slice(0, element.indexOf(':')) : '';
  const namespace = namespaces.get(prefix);
  if (namespace !== CORE_NAMESPACE) violations.add('core.namespace', `<${element}> is in ${namespace ? `the namespace ${namespace}` : 'no namespace'}, not the 3MF core namespace.`, at(xml));
  const unit = xml.string('unit');
  if (unit !== null && !isUnitName(unit)) violations.add('core.unit', `The model's unit is "${unit}"; it is read as millimetres.`, at(xml));
  for (const required of xml.string('requiredextensions')?.trim().split(/\s+/).filter(Boolean) ?? []) {
    const uri = namespaces.get(required);
    if (uri === undefined) violations.add('core.required-extension', `requiredextensions names "${required}", which <model> does not declare.`, at(xml));
    else if (!READ_EXTENSIONS.has(uri)) warnings.push(`The file requires an extension PrintDesk does not read (${uri}): the preview and the facts may miss what it adds.`);
  }
  return new Set([...namespaces.keys()].filter(Boolean));
}

/** Checks the <metadata> the scanner stands on, against the names already seen in its group. */
export function checkMetadata(xml: XmlScanner, violations: Violations, prefixes: ReadonlySet<string>, seen: Set<string> | undefined): void {
  const name = xml.string('name');
  if (name === null || name.trim() === '') return violations.add('core.metadata-name', 'A <metadata> has no name.', at(xml));
  const colon = name.indexOf(':');
  if (colon < 0 && !WELL_KNOWN_METADATA.has(name.toLowerCase())) violations.add('core.metadata-name', `Metadata "${name}" is neither a well-known name nor prefixed with a namespace.`, at(xml));
  if (colon >= 0 && !prefixes.has(name.slice(0, colon))) violations.add('core.metadata-name', `Metadata "${name}" uses the prefix "${name.slice(0, colon)}", which <model> does not declare.`, at(xml));
  if (seen?.has(name)) violations.add('core.metadata-duplicate', `Metadata "${name}" is given twice.`, at(xml));
  seen?.add(name);
}
