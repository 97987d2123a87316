// How browser mode's bridge carries a message over its WebSocket. Plain messages are JSON text. One
// holding bytes (a model file for a preview) is a single binary frame: a 4-byte little-endian length,
// the JSON with each byte array replaced by { $bytes: [offset, length] }, then the arrays back to back.
// No base64: a 100 MB model costs one copy on each side instead of a third more bytes and two passes.

type BytesRef = { $bytes: [number, number] };

function isBytesRef(value: unknown): value is BytesRef {
  const ref = (value as BytesRef | null)?.$bytes;
  return Array.isArray(ref) && ref.length === 2 && Number.isSafeInteger(ref[0]) && Number.isSafeInteger(ref[1]);
}

export function encodeFrame(message: unknown): string | Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  // The holder's own value: a Node Buffer has already become { type, data } by its toJSON when `value` arrives.
  const json = JSON.stringify(message, function (this: Record<string, unknown>, key: string, value: unknown) {
    const original = this[key];
    if (!(original instanceof Uint8Array)) return value;
    parts.push(original);
    size += original.byteLength;
    return { $bytes: [size - original.byteLength, original.byteLength] };
  });
  if (parts.length === 0) return json;
  const head = new TextEncoder().encode(json);
  const frame = new Uint8Array(4 + head.length + size);
  new DataView(frame.buffer).setUint32(0, head.length, true);
  frame.set(head, 4);
  let at = 4 + head.length;
  for (const part of parts) {
    frame.set(part, at);
    at += part.byteLength;
  }
  return frame;
}

/** The message of a frame; byte arrays come back as views into the received buffer. */
export function decodeFrame(data: string | ArrayBuffer): unknown {
  if (typeof data === 'string') return JSON.parse(data);
  const length = new DataView(data).getUint32(0, true);
  const base = 4 + length;
  const json = new TextDecoder().decode(new Uint8Array(data, 4, length));
  return JSON.parse(json, (_key, value: unknown) => {
    if (!isBytesRef(value)) return value;
    const [offset, bytes] = value.$bytes;
    if (base + offset + bytes > data.byteLength) throw new Error('A bridge frame is shorter than its header says');
    return new Uint8Array(data, base + offset, bytes);
  });
}
