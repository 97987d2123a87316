// Which CSV column feeds which order field: matched from header names where obvious, checked
// before any row is read, and keyed by the header layout so a shop's export is mapped once.
import type { ColumnMapping, FieldConstants } from '../../electron/services/batch/schemas.ts';

export type { ColumnMapping, FieldConstants };

export const BATCH_FIELDS = [
  'orderReference',
  'firstName',
  'lastName',
  'streetAddress',
  'postal',
  'city',
  'country',
  'countryState',
  'phoneNumber',
  'email',
  'modelId',
  'modelName',
  'sku',
  'productName',
  'quantity',
  'shippingMethod',
  'carrier',
  'method',
  'configIds',
  'externalConfigIds',
  'stockIds',
] as const;
export type BatchField = (typeof BATCH_FIELDS)[number];

/**
 * Fields that can take one value for every row that has none: what a platform does not export (Etsy has no
 * e-mail or phone), such as the shop's own contact for the carrier, or the country of a shop that ships at home.
 */
export const CONSTANT_FIELDS = ['email', 'phoneNumber', 'country'] as const;
export type ConstantField = (typeof CONSTANT_FIELDS)[number];

export const FIELD_LABELS: Record<BatchField, string> = {
  orderReference: 'Order reference',
  firstName: 'First name',
  lastName: 'Last name',
  streetAddress: 'Street address',
  postal: 'Postal code',
  city: 'City',
  country: 'Country',
  countryState: 'State / province',
  phoneNumber: 'Phone number',
  email: 'Email',
  modelId: 'Model id',
  modelName: 'Model file name',
  sku: 'SKU',
  productName: 'Product name',
  quantity: 'Quantity',
  shippingMethod: 'Shipping method (id, or cheapest / fastest)',
  carrier: 'Carrier code',
  method: 'Delivery method code',
  configIds: 'Config ids',
  externalConfigIds: 'External config ids',
  stockIds: 'Stock ids',
};

export const REQUIRED_FIELDS: readonly BatchField[] = ['firstName', 'lastName', 'streetAddress', 'postal', 'city', 'country', 'email'];

// Names as shop fronts and spreadsheets write them (English, Dutch, German, French, Spanish), normalised.
const SYNONYMS: Record<BatchField, readonly string[]> = {
  orderReference: ['orderreference', 'reference', 'ref', 'orderid', 'ordernumber', 'orderno', 'ordernr', 'order', 'bestelnummer', 'referentie', 'bestellnummer', 'referenz'],
  firstName: ['firstname', 'first', 'givenname', 'forename', 'voornaam', 'vorname', 'prenom', 'nombre'],
  lastName: ['lastname', 'last', 'surname', 'familyname', 'achternaam', 'nachname', 'nom', 'apellido', 'apellidos'],
  streetAddress: ['streetaddress', 'address', 'street', 'address1', 'addressline1', 'straat', 'adres', 'strasse', 'adresse', 'direccion'],
  postal: ['postal', 'postalcode', 'zip', 'zipcode', 'postcode', 'plz', 'codepostal', 'codigopostal'],
  city: ['city', 'town', 'plaats', 'woonplaats', 'stad', 'stadt', 'ort', 'ville', 'ciudad'],
  country: ['country', 'countrycode', 'land', 'pays', 'pais', 'countryiso'],
  countryState: ['countrystate', 'state', 'province', 'region', 'provincie', 'bundesland', 'county', 'stateprovince'],
  phoneNumber: ['phonenumber', 'phone', 'telephone', 'tel', 'telefoon', 'telefon', 'mobile', 'telefono'],
  email: ['email', 'emailaddress', 'mail', 'emailadres'],
  modelId: ['modelid', 'modelguid'],
  modelName: ['modelname', 'model', 'file', 'modelfile', 'filename', 'bestand', 'datei', 'fichier'],
  sku: ['sku', 'customlabel', 'sellersku', 'productsku', 'itemsku', 'variantsku', 'articlenumber', 'artikelnummer', 'artikelnr', 'referencia'],
  productName: ['productname', 'itemname', 'itemtitle', 'lineitemname', 'producttitle', 'product', 'title', 'produkt', 'produit', 'producto', 'artikel'],
  quantity: ['quantity', 'qty', 'amount', 'count', 'aantal', 'anzahl', 'menge', 'quantite', 'cantidad', 'pieces'],
  shippingMethod: ['shippingmethod', 'shippingmethodid', 'shipping', 'shippingid', 'verzendmethode', 'versandart'],
  carrier: ['carrier', 'carriercode', 'shippingcarrier', 'vervoerder'],
  method: ['method', 'methodcode', 'deliverymethod', 'shippingmethodcode'],
  configIds: ['configids', 'configid'],
  externalConfigIds: ['externalconfigids', 'externalconfigid'],
  stockIds: ['stockids', 'stockid'],
};

// Prefixes that shop exports put before the field ("Shipping City", "Recipient Name", "Lineitem quantity").
const PREFIXES = ['shipping', 'recipient', 'delivery', 'customer', 'lineitem', 'item', 'ship'];

/** Each name's field, and its rank among that field's names: "Order reference" says it better than "Order id". */
const LOOKUP = new Map<string, { field: BatchField; rank: number }>();
for (const field of BATCH_FIELDS) SYNONYMS[field].forEach((name, rank) => LOOKUP.has(name) || LOOKUP.set(name, { field, rank }));

/** Lower case, accents and punctuation dropped: "E-mail", "e_mail " and "EMail" are one name. */
export function normalizeHeader(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The field a header names, and how well: lower is better, a prefixed name after every exact one. */
function fieldOf(name: string): { field: BatchField; rank: number } | undefined {
  const normal = normalizeHeader(name);
  const exact = LOOKUP.get(normal);
  if (exact) return exact;
  const prefix = PREFIXES.find((p) => normal.startsWith(p) && normal.length > p.length);
  const prefixed = prefix ? LOOKUP.get(normal.slice(prefix.length)) : undefined;
  return prefixed && { field: prefixed.field, rank: 1000 + prefixed.rank };
}

/**
 * Each field takes the column that names it best, the first of equals: "Order reference" beats an "Order
 * id" before it (a report of PrintDesk's own, imported again, has both), and exact names beat prefixed ones.
 */
export function autoMap(header: readonly string[]): ColumnMapping {
  const best = new Map<BatchField, { column: number; rank: number }>();
  header.forEach((name, column) => {
    const found = fieldOf(name);
    const held = found && best.get(found.field);
    if (found && (!held || found.rank < held.rank)) best.set(found.field, { column, rank: found.rank });
  });
  return Object.fromEntries([...best].map(([field, { column }]) => [field, column])) as ColumnMapping;
}

/** A short, stable name for a header layout (FNV-1a of the normalised names), for remembering mappings. */
export function layoutKey(header: readonly string[]): string {
  const text = header.map(normalizeHeader).join('\u001f');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `csv-${header.length}-${hash.toString(16).padStart(8, '0')}`;
}

export interface MappingProblem {
  field: BatchField | null;
  message: string;
}

/** What keeps a mapping from being used: required fields without a column, columns that do not exist. */
export function checkMapping(header: readonly string[], mapping: ColumnMapping, constants: FieldConstants = {}): MappingProblem[] {
  const problems: MappingProblem[] = [];
  const given = (field: BatchField) => (CONSTANT_FIELDS as readonly string[]).includes(field) && !!constants[field as ConstantField]?.trim();
  for (const field of REQUIRED_FIELDS) {
    if (mapping[field] !== undefined || given(field)) continue;
    const or = (CONSTANT_FIELDS as readonly string[]).includes(field) ? ', or give one for every row' : '';
    problems.push({ field, message: `No column for ${FIELD_LABELS[field]}: add one to the file or map a column to it${or}` });
  }
  if (mapping.modelId === undefined && mapping.modelName === undefined && mapping.sku === undefined) {
    problems.push({ field: 'modelId', message: 'No column for the model: map a Model id, a Model file name or a SKU column' });
  }
  if ((mapping.carrier === undefined) !== (mapping.method === undefined)) {
    problems.push({ field: mapping.carrier === undefined ? 'carrier' : 'method', message: 'A carrier code and a delivery method code are only used together: map both or neither' });
  }
  const used = new Map<number, BatchField>();
  for (const [field, column] of Object.entries(mapping) as [BatchField, number][]) {
    if (!Number.isInteger(column) || column < 0 || column >= header.length) {
      problems.push({ field, message: `${FIELD_LABELS[field]} is mapped to column ${column + 1}, which the file does not have` });
    } else if (used.has(column)) {
      problems.push({ field, message: `Column "${header[column]}" is mapped to both ${FIELD_LABELS[used.get(column) as BatchField]} and ${FIELD_LABELS[field]}` });
    } else used.set(column, field);
  }
  return problems;
}
