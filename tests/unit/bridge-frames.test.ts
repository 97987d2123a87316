// Browser mode's bridge frames: text for plain messages, one binary frame for messages holding bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFrame, encodeFrame } from '../../electron/bridge-frames.ts';

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
