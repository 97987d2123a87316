// How browser mode's bridge carries a message over its WebSocket. Plain messages are JSON text. One
// holding bytes (a model file for a preview) is a single binary frame: a 4-byte little-endian length,
// the JSON with each byte array replaced by { $bytes: [offset, length] }, then the arrays back to back.
// No base64: a 100 MB model costs one copy on each side instead of a third more bytes and two passes.
// With a `park`, arrays of 256 KB or more leave the frame altogether: it names a token, and the page
// fetches them over HTTP (see parking.ts for why). Not only large files: a first picture's two arrays of
// 0.4 and 0.6 MB in the frame held the page's thread 150 ms as the WebSocket message was put together.

type BytesRef = { $bytes: [number, number] };
type ParkedRef = { $parked: [string, number] };

/** Byte arrays from this size on are parked when the sender can park them. */
export const PARK_FROM_BYTES = 256 * 1024;

function isBytesRef(value: unknown): value is BytesRef {
  const ref = (value as BytesRef | null)?.$bytes;
  return Array.isArray(ref) && ref.length === 2 && Number.isSafeInteger(ref[0]) && Number.isSafeInteger(ref[1]);
}

function isParkedRef(value: unknown): value is ParkedRef {
  const ref = (value as ParkedRef | null)?.$parked;
  return Array.isArray(ref) && ref.length === 2 && typeof ref[0] === 'string' && Number.isSafeInteger(ref[1]);
}

/** A byte array left out of a frame: fetch it by its token, then `place` it where the message holds it. */
export interface ParkedBytes {
  token: string;
  length: number;
  place(bytes: Uint8Array): void;
}

export function encodeFrame(message: unknown, park?: (bytes: Uint8Array) => string): string | Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  // The holder's own value: a Node Buffer has already become { type, data } by its toJSON when `value` arrives.
  const json = JSON.stringify(message, function (this: Record<string, unknown>, key: string, value: unknown) {
    const original = this[key];
    if (!(original instanceof Uint8Array)) return value;
    if (park && original.byteLength >= PARK_FROM_BYTES) return { $parked: [park(original), original.byteLength] };
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

/**
 * The message of a frame; byte arrays come back as views into the received buffer. Each parked one is
 * handed to `onParked` and stays a reference until placed.
 */
export function decodeFrame(data: string | ArrayBuffer, onParked?: (parked: ParkedBytes) => void): unknown {
  const binary = typeof data !== 'string';
  const length = binary ? new DataView(data).getUint32(0, true) : 0;
  const base = 4 + length;
  const json = binary ? new TextDecoder().decode(new Uint8Array(data, 4, length)) : data;
  return JSON.parse(json, function (this: Record<string, unknown>, key: string, value: unknown) {
    if (onParked && isParkedRef(value)) {
      const [token, size] = value.$parked;
      onParked({ token, length: size, place: (bytes) => void (this[key] = bytes) });
      return value;
    }
    if (!binary || !isBytesRef(value)) return value;
    const [offset, bytes] = value.$bytes;
    if (base + offset + bytes > data.byteLength) throw new Error('A bridge frame is shorter than its header says');
    return new Uint8Array(data, base + offset, bytes);
  });
}
