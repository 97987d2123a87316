// Files picked by mistake where a model or a CSV was wanted, told by their first bytes. Each caller words
// its own refusal: "This is a PNG image, not an STL model", "This is an Excel workbook, not CSV".
const SIGNATURES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  gif: [0x47, 0x49, 0x46, 0x38],
  pdf: [0x25, 0x50, 0x44, 0x46, 0x2d],
  zip: [0x50, 0x4b, 0x03, 0x04],
  office: [0xd0, 0xcf, 0x11, 0xe0],
  gzip: [0x1f, 0x8b],
  sevenZip: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
  rar: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07],
  step: [...'ISO-10303-21'].map((c) => c.charCodeAt(0)),
} as const satisfies Record<string, readonly number[]>;

export type FileKind = keyof typeof SIGNATURES;

export const FILE_KIND_LABELS: Record<FileKind, string> = {
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  pdf: 'a PDF document',
  zip: 'a ZIP archive',
  office: 'an old Office document (.xls or .doc)',
  gzip: 'a gzip archive',
  sevenZip: 'a 7-Zip archive',
  rar: 'a RAR archive',
  step: 'a STEP CAD file',
};

export function fileKind(head: Uint8Array): FileKind | null {
  const found = (Object.keys(SIGNATURES) as FileKind[]).find((kind) => SIGNATURES[kind].every((byte, at) => head[at] === byte));
  return found ?? null;
}
