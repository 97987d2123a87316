// The 3MF inflater for Node (`printdesk inspect`, benches): zlib, native and several times faster than
// the JavaScript one the shared parser falls back to. `maxOutputLength` stops it the moment an entry
// would pass its declared size, so a lying header costs no more than the honest size.
import { inflateRawSync } from 'node:zlib';
import { ModelParseError } from '../../../common/models/errors.ts';

export function zlibInflateRaw(compressed: Uint8Array, size: number, name: string): Uint8Array {
  try {
    const out = inflateRawSync(compressed, { maxOutputLength: Math.max(1, size) });
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ModelParseError('ZIP_BOMB', `"${name}" inflates to more than the ${size} bytes its header declares.`, { part: name });
    }
    throw error;
  }
}
