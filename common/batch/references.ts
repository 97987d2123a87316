// The order reference of each row: the file's own where it has a column for them, otherwise one made
// from what the row orders. A reference is what makes a batch safe to import again: an order whose
// reference was used before is skipped, never placed a second time.
import type { BatchField, ColumnMapping } from './mapping.ts';
import { alpha2FromText } from '../orders/countries.ts';
import { restoreCell } from '../csv-text.ts';
import type { CsvRecord } from './csv-record.ts';

/** Hex digest of a text (SHA-256 in the app), passed in so that this module runs anywhere. */
export type Digest = (text: string) => string;

export interface ReferencedRecord extends CsvRecord {
  reference: string;
}

export const GENERATED_PREFIX = 'PDB-';

/** Said wherever a file without references is imported: how its orders are told apart. */
export const NO_REFERENCE_COLUMN =
  'No order reference column: each row is known by its recipient, address and models, so importing the file again never places a row twice (a changed row is a new order). To order the same rows again, add an orderReference column with new references.';

/** The reference a row gives itself, or '' when the file has no such column or the cell is empty. */
export function givenReference(mapping: ColumnMapping, record: CsvRecord): string {
  const column = mapping.orderReference;
  return column === undefined ? '' : restoreCell((record.cells[column] ?? '').trim());
}

/**
 * The fields that make an order this order: who gets it, where, and what. Not the phone, the email, the
 * shipping choice or config ids, so that mapping such a column, or leaving it out, on another import of
 * the same file does not make every row a new order.
 */
const IDENTITY: readonly BatchField[] = ['firstName', 'lastName', 'streetAddress', 'postal', 'city', 'country', 'countryState', 'quantity'];

/**
 * What a row orders: its project and its identity fields, with case and spacing evened out. Not its place
 * in the file, and not columns PrintDesk does not read: a row added above it, a note column or a file
 * saved again by a spreadsheet leave it the same order; a changed address or quantity makes it another.
 */
function contentOf(projectId: string, mapping: ColumnMapping, record: CsvRecord): string {
  const cell = (field: BatchField) => (mapping[field] === undefined ? '' : restoreCell((record.cells[mapping[field]] ?? '').trim()).replace(/\s+/g, ' ').toLowerCase());
  // The model by its id where the row gives one, else by its name without extension: a file with both
  // columns names the same orders whether or not its name column is mapped.
  const model = cell('modelId') || cell('modelName').replace(/\.(stl|obj|3mf)$/, '');
  return JSON.stringify([projectId, model, ...IDENTITY.map((field) => canonical(field, cell(field)))]);
}

/** One spelling per value where files differ in form only: "Netherlands" is NL, "1015cj" is "1015 CJ". */
function canonical(field: BatchField, value: string): string {
  if (field === 'country') return alpha2FromText(value)?.toLowerCase() ?? value;
  if (field === 'postal') return value.replace(/[\s-]/g, '');
  if (field === 'quantity') return value.replace(/^0+(?=\d)/, '');
  return value;
}

/**
 * References for every row of a file. A row without its own gets `PDB-<content digest>-<n>`, n counting
 * the rows of the file with the same content: two identical rows are two orders, and importing the file
 * again, edited elsewhere or not, names the same orders again.
 */
export function withReferences(records: readonly CsvRecord[], mapping: ColumnMapping, projectId: string, digest: Digest): ReferencedRecord[] {
  const seen = new Map<string, number>();
  return records.map((record) => {
    const given = givenReference(mapping, record);
    if (given) return { ...record, reference: given };
    const content = digest(contentOf(projectId, mapping, record)).slice(0, 16).toLowerCase();
    const nth = (seen.get(content) ?? 0) + 1;
    seen.set(content, nth);
    return { ...record, reference: `${GENERATED_PREFIX}${content}-${nth}` };
  });
}
