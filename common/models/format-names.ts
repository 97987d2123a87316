// What a model format is called, and whether a file's name promises the format its content has. Apart
// from detect.ts so that a reader that knows the format already (printdesk inspect's binary STL) loads no
// detection, and with it no ZIP reader.
import type { ModelFormat } from './types.ts';

const FORMAT_NAMES: Record<ModelFormat, string> = { 'stl-binary': 'a binary STL', 'stl-ascii': 'an ASCII STL', obj: 'an OBJ', '3mf': 'a 3MF package' };

export function describeFormat(format: ModelFormat): string {
  return FORMAT_NAMES[format];
}

export function extensionOf(fileName: string): string {
  const match = /\.([a-z0-9]+)$/i.exec(fileName);
  return match ? match[1].toLowerCase() : '';
}

const EXPECTED: Record<string, ModelFormat[]> = { stl: ['stl-binary', 'stl-ascii'], obj: ['obj'], '3mf': ['3mf'] };

/** A warning when the content is a model but not the one its extension promises (it is still read). */
export function extensionMismatch(format: ModelFormat, fileName: string): string | undefined {
  const expected = EXPECTED[extensionOf(fileName)];
  if (!expected || expected.includes(format)) return undefined;
  return `${fileName} is named .${extensionOf(fileName)} but contains ${describeFormat(format)}; read as such.`;
}
