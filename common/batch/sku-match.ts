// Which model a shop's SKU prints: the project's SKU table first (picked once by the user, or marked "not a
// print"), then a model whose file name without its extension is the SKU, ignoring case. Pure.

/** A row of the project's SKU table: a model, or "not a print, skip". */
export interface SkuEntry {
  sku: string;
  modelId: string | null;
  skip: boolean;
}

export type SkuMatch =
  | { kind: 'model'; modelId: string; how: 'table' | 'file-name'; name?: string }
  | { kind: 'skip' }
  /** `sameName`: models whose file is named so (two or more: which one is the user's to pick) */
  | { kind: 'none'; sameName: number };

export type SkuLookup = (sku: string) => SkuMatch;

/** lower-case key → model ids; one id where the key is unique in the project */
export type ModelKeys = ReadonlyMap<string, string | readonly string[]>;

/** What a batch needs of the project's models: by name and file name, and by file name without extension. */
export interface ProjectModels {
  byName: ModelKeys;
  byStem: ModelKeys;
  /** model id → its name, to show what a SKU became */
  names: ReadonlyMap<string, string>;
}

/** A SKU as the table keys it: trimmed, one case. */
export function skuKey(sku: string): string {
  return sku.trim().toLowerCase();
}

/** A file name without its model extension, lower-cased: "Bracket-V2.STL" is "bracket-v2". */
export function fileStem(fileName: string): string {
  return fileName.trim().toLowerCase().replace(/\.(stl|obj|3mf)$/, '');
}

export function idsOf(keys: ModelKeys, key: string): string[] {
  const found = keys.get(key);
  if (found === undefined) return [];
  return [...new Set((typeof found === 'string' ? [found] : found).map((id) => id.toLowerCase()))];
}

/**
 * The SKU table's entry wins; a model it names that is gone from the project counts as none, so the row
 * asks again rather than ordering a model that no longer exists.
 */
export function createSkuLookup(table: ReadonlyMap<string, SkuEntry>, models: ProjectModels | null): SkuLookup {
  // A file names few SKUs many times: each is looked up once.
  const known = new Map<string, SkuMatch>();
  return (sku) => {
    const key = skuKey(sku);
    let match = known.get(key);
    if (!match) known.set(key, (match = lookUp(key)));
    return match;
  };

  function lookUp(key: string): SkuMatch {
    const entry = table.get(key);
    if (entry?.skip) return { kind: 'skip' };
    const named = (modelId: string) => models?.names.get(modelId);
    if (entry?.modelId && (!models || models.names.has(entry.modelId.toLowerCase()))) {
      const modelId = entry.modelId.toLowerCase();
      return { kind: 'model', modelId, how: 'table', name: named(modelId) };
    }
    const ids = models ? idsOf(models.byStem, key) : [];
    if (ids.length === 1) return { kind: 'model', modelId: ids[0], how: 'file-name', name: named(ids[0]) };
    return { kind: 'none', sameName: ids.length };
  }
}

/**
 * The SKUs a row orders: its SKU cell (several, comma-separated, where the platform lists an order's SKUs in
 * one cell), or the product's name where it has no SKU (shipping protection, a tip): such a product is
 * known by its name instead.
 */
export function skusOfRow(skuCell: string, productName: string, listed: boolean): string[] {
  const skus = listed ? skuCell.split(',').map((s) => s.trim()).filter(Boolean) : skuCell ? [skuCell] : [];
  if (skus.length === 0 && productName) skus.push(productName);
  return skus;
}
