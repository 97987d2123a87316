// Browser mode's bridge frames: text for plain messages, one binary frame for messages holding bytes, and
// large arrays parked to be fetched over HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFrame, encodeFrame, PARK_FROM_BYTES, type ParkedBytes } from '../../electron/browser/frames.ts';
import { createParking } from '../../electron/browser/parking.ts';

const arrayBufferOf = (frame: Uint8Array) => frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength) as ArrayBuffer;

test('a message without bytes stays JSON text', () => {
  const message = { id: 3, result: { ok: true, value: { name: 'ä €', n: [1, 2] } } };
  const frame = encodeFrame(message);
  assert.equal(typeof frame, 'string');
  assert.deepEqual(decodeFrame(frame as string), message);
});

test('byte arrays travel raw in one binary frame and come back equal, Buffers included', () => {
  const model = new Uint8Array([0, 1, 2, 253, 254, 255]);
  const part = new Uint8Array(new ArrayBuffer(16), 4, 3).fill(7);
  const message = { id: 9, result: { ok: true, value: { name: 'suzanne.obj', bytes: model, more: [part, Buffer.from('hi')] } } };
  const frame = encodeFrame(message);
  assert.ok(frame instanceof Uint8Array);
  assert.ok(frame.byteLength < 200, 'no base64: the frame is the JSON plus the bytes themselves');
  const decoded = decodeFrame(arrayBufferOf(frame)) as typeof message;
  assert.deepEqual([...decoded.result.value.bytes], [...model]);
  assert.deepEqual([...decoded.result.value.more[0]], [7, 7, 7]);
  assert.deepEqual([...decoded.result.value.more[1]], [104, 105]);
  assert.equal(decoded.result.value.name, 'suzanne.obj');
});

test('a frame cut short is an error, not a short array', () => {
  const frame = encodeFrame({ bytes: new Uint8Array(100) }) as Uint8Array;
  assert.throws(() => decodeFrame(arrayBufferOf(frame.subarray(0, frame.length - 10))), /shorter than its header/);
});

test('with a park, a megabyte or more leaves the frame as a token, and is placed back where it was', () => {
  const big = new Uint8Array(PARK_FROM_BYTES).fill(9);
  const small = new Uint8Array([1, 2, 3]);
  const parked: Uint8Array[] = [];
  const message = { id: 4, result: { ok: true, value: { name: 'm.stl', bytes: big, thumbnail: small } } };
  const frame = encodeFrame(message, (bytes) => String(parked.push(bytes) - 1));
  assert.ok(frame instanceof Uint8Array && frame.byteLength < 1000, 'the small array rides along, the large one does not');
  assert.equal(parked[0], big);
  const found: ParkedBytes[] = [];
  const decoded = decodeFrame(arrayBufferOf(frame), (ref) => found.push(ref)) as typeof message;
  assert.deepEqual(found.map(({ token, length }) => ({ token, length })), [{ token: '0', length: PARK_FROM_BYTES }]);
  assert.deepEqual([...decoded.result.value.thumbnail], [1, 2, 3]);
  found[0].place(parked[0]);
  assert.equal(decoded.result.value.bytes, big);
  // A text frame names its parked arrays too, and without a park nothing leaves.
  const text = encodeFrame({ value: { bytes: big } }, () => 'T');
  assert.equal(typeof text, 'string');
  const refs: ParkedBytes[] = [];
  decodeFrame(text as string, (ref) => refs.push(ref));
  assert.equal(refs[0]?.token, 'T');
  assert.ok((encodeFrame({ bytes: big }) as Uint8Array).byteLength > PARK_FROM_BYTES);
});

test('a parked array is fetched once: a spent, unknown, expired or abandoned token finds nothing', async () => {
  const parking = createParking(30);
  const page = {}, other = {};
  const bytes = new Uint8Array([5, 6]);
  const token = parking.park(bytes, page);
  assert.match(token, /^[0-9a-f]{32}$/);
  assert.equal(parking.take(token), bytes);
  assert.equal(parking.take(token), undefined);
  assert.equal(parking.take('not-a-token'), undefined);
  const late = parking.park(bytes, page);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(parking.take(late), undefined);
  // A page that reloads before fetching leaves nothing behind; another page's arrays stay.
  const abandoned = parking.park(bytes, page);
  const kept = parking.park(bytes, other);
  parking.drop(page);
  assert.equal(parking.take(abandoned), undefined);
  assert.equal(parking.take(kept), bytes);
  parking.clear();
});

test('past the limit, the oldest parked arrays make room for the new one', () => {
  const parking = createParking(60_000, 10);
  const owner = {};
  const first = parking.park(new Uint8Array(4), owner);
  const second = parking.park(new Uint8Array(4), owner);
  const third = parking.park(new Uint8Array(4), owner);
  assert.equal(parking.take(first), undefined, 'the oldest went');
  assert.equal(parking.take(second)?.length, 4);
  assert.equal(parking.take(third)?.length, 4);
  parking.clear();
});
