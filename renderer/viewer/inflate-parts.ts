// A 3MF's model and relationship parts inflated by the browser's own DecompressionStream before the
// synchronous parser runs: native inflate is several times faster than the JavaScript one in the shared
// parser. Anything unusual (a lying size, a corrupt stream, no DecompressionStream) is left to that
// parser, whose inflater reports it precisely.
import { DEFAULT_MAX_UNZIPPED_BYTES } from '../../common/models/index.ts';
import { checkDeclaredSizes, isZip, readZipDirectory, type RawInflater, type ZipEntry } from '../../common/models/zip.ts';

const PARTS = /\.(model|rels)$/i;

export async function inflatePartsNatively(bytes: Uint8Array): Promise<RawInflater | undefined> {
  if (typeof DecompressionStream === 'undefined' || !isZip(bytes)) return undefined;
  let wanted: ZipEntry[];
  try {
    wanted = readZipDirectory(bytes).filter((entry) => entry.method === 8 && PARTS.test(entry.name));
    // Before anything is allocated at a declared size.
    checkDeclaredSizes(wanted, DEFAULT_MAX_UNZIPPED_BYTES);
  } catch {
    return undefined;
  }
  const inflated = new Map<string, Uint8Array>();
  for (const entry of wanted) {
    const out = await inflateEntry(bytes, entry).catch(() => undefined);
    if (out) inflated.set(entry.name, out);
  }
  return (_compressed, _size, name) => inflated.get(name);
}

/** Exactly the declared size, or undefined: output past it stops the stream at once. */
async function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Promise<Uint8Array | undefined> {
  const data = bytes.slice(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  const reader = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const out = new Uint8Array(entry.size);
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (length + value.length > out.length) {
      await reader.cancel();
      return undefined;
    }
    out.set(value, length);
    length += value.length;
  }
  return length === out.length ? out : undefined;
}
