// 3MF packages written for the specification tests, built with fflate as the test runs (no binary fixtures
// in the repository): a valid package whose pieces each test replaces to break one rule at a time.
import { strToU8, zipSync } from 'fflate';

export const CORE = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';
export const MATERIALS = 'http://schemas.microsoft.com/3dmanufacturing/material/2015/02';
export const PRODUCTION = 'http://schemas.microsoft.com/3dmanufacturing/production/2015/06';
export const START_PART = 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel';
export const THUMBNAIL = 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail';
export const TEXTURE = 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dtexture';

/** A closed 10 mm cube's vertices and triangles; `attributes` go on every triangle, `first` on the first only. */
export function cubeMesh(attributes = '', first = ''): string {
  const v = [[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0], [0, 0, 10], [10, 0, 10], [10, 10, 10], [0, 10, 10]];
  const t = [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]];
  const vertices = v.map(([x, y, z]) => `<vertex x="${x}" y="${y}" z="${z}"/>`).join('');
  const triangles = t.map(([a, b, c], i) => `<triangle v1="${a}" v2="${b}" v3="${c}"${attributes}${i === 0 ? first : ''}/>`).join('');
  return `<mesh><vertices>${vertices}</vertices><triangles>${triangles}</triangles></mesh>`;
}

/** A <model> part: resources and build as given, with the core, materials and production namespaces. */
export function modelXml(resources: string, build = '<item objectid="1"/>', { head = '', attributes = '' } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" xmlns="${CORE}" xmlns:m="${MATERIALS}" xmlns:p="${PRODUCTION}"${attributes}>\n${head}<resources>\n${resources}\n</resources>\n<build>${build}</build>\n</model>\n`;
}

export const CUBE_OBJECT = `<object id="1" type="model">${cubeMesh()}</object>`;

export function relationships(...list: { target: string; type: string; id?: string; extra?: string }[]): string {
  const rows = list.map(({ target, type, id, extra = '' }, index) => `<Relationship Target="${target}" Id="${id ?? `rel${index}`}" Type="${type}"${extra}/>`);
  return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rows.join('')}</Relationships>`;
}

export function contentTypes(defaults: Record<string, string>, overrides: Record<string, string> = {}): string {
  const rows = [
    ...Object.entries(defaults).map(([extension, type]) => `<Default Extension="${extension}" ContentType="${type}"/>`),
    ...Object.entries(overrides).map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${rows.join('')}</Types>`;
}

export const DEFAULT_TYPES = {
  rels: 'application/vnd.openxmlformats-package.relationships+xml',
  model: 'application/vnd.ms-package.3dmanufacturing-3dmodel+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
};

/** An 8-byte PNG signature: enough of a picture for a package's parts (nothing decodes it). */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PackageParts {
  /** The root model part's XML (at /3D/3dmodel.model). */
  model?: string;
  /** Other parts, by name without the leading slash. `null` leaves a standard part out. */
  parts?: Record<string, string | Uint8Array | null>;
  /** _rels/.rels; the StartPart relationship to /3D/3dmodel.model by default. */
  rels?: string | null;
  /** [Content_Types].xml; rels, model, png and jpg defaults by default. */
  types?: string | null;
}

/** A 3MF package: a valid cube, unless the caller replaces a piece of it. */
export function package3mf({ model = modelXml(CUBE_OBJECT), parts = {}, rels, types }: PackageParts = {}): Uint8Array {
  const files: Record<string, Uint8Array | null> = {
    '[Content_Types].xml': types === null ? null : strToU8(types ?? contentTypes(DEFAULT_TYPES)),
    '_rels/.rels': rels === null ? null : strToU8(rels ?? relationships({ target: '/3D/3dmodel.model', type: START_PART })),
    '3D/3dmodel.model': strToU8(model),
  };
  for (const [name, content] of Object.entries(parts)) files[name] = content === null ? null : typeof content === 'string' ? strToU8(content) : content;
  const present = Object.fromEntries(Object.entries(files).filter((entry): entry is [string, Uint8Array] => entry[1] !== null));
  return zipSync(present, { level: 6 });
}
