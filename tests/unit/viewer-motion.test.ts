// How the preview paces itself without a GPU: every triangle of a large model uploaded in parts sized so a
// loading step keeps within a moving frame's budget, and a moving view drawn with fewer pixels when a frame
// of it costs too much; the keys it answers to, the same on both sides of a worker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MOVING_FRAME_MS } from '../../renderer/viewer/detail-policy.ts';
import { InputSurface, type RelayedEvent } from '../../renderer/viewer/input-relay.ts';
import { MotionResolution } from '../../renderer/viewer/motion-resolution.ts';
import { LOADING_FRAME_MS, UploadPacer } from '../../renderer/viewer/upload-pacer.ts';
import { isFitKey, isViewKey, zoomFactor } from '../../renderer/viewer/view-keys.ts';

test('parts of every triangle are sized by what the last one cost: smaller when slow, larger (at most double) when quick', () => {
  const pacer = new UploadPacer();
  const first = pacer.next;
  pacer.record(first, LOADING_FRAME_MS * 4);
  assert.ok(pacer.next < first / 4, `a part four times over the budget is cut to fit half of it (${pacer.next})`);
  const slow = pacer.next;
  pacer.record(slow, 1);
  assert.equal(pacer.next, slow * 2, 'a quick part doubles the next, no more');
  for (let i = 0; i < 40; i++) pacer.record(pacer.next, 0.01);
  assert.ok(pacer.next <= 2_097_152, 'never beyond the largest part');
  for (let i = 0; i < 40; i++) pacer.record(pacer.next, 10_000);
  assert.ok(pacer.next >= 16_384, 'never below the smallest part');
  pacer.record(0, 0);
  assert.ok(pacer.next >= 16_384, 'a step that uploaded nothing says nothing');
});

test('a moving view drawn too slowly loses pixels until a frame fits, and gets them back when frames are quick', () => {
  const motion = new MotionResolution();
  assert.equal(motion.scale, 1);
  motion.record(MOVING_FRAME_MS * 4);
  assert.ok(motion.scale < 0.5 && motion.scale > 0.4, `four times over: about half the pixels per side (${motion.scale})`);
  for (let i = 0; i < 20; i++) motion.record(MOVING_FRAME_MS * 10);
  assert.equal(motion.scale, 0.35, 'never coarser than a legible picture');
  motion.record(MOVING_FRAME_MS * 0.75);
  assert.equal(motion.scale, 0.35, 'a frame within the budget keeps the scale');
  for (let i = 0; i < 30; i++) motion.record(1);
  assert.equal(motion.scale, 1, 'quick frames bring it back to full resolution, no further');
});

test('the keys the preview takes are held back from the page, and no others', () => {
  const key = (key: string, code = '', mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({ key, code, ctrlKey: false, metaKey: false, altKey: false, ...mods });
  for (const arrow of ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']) assert.ok(isViewKey(key(arrow, arrow)), arrow);
  assert.ok(isViewKey(key('+')) && isViewKey(key('-')) && isViewKey(key('=')) && isViewKey(key('_')));
  assert.ok(isFitKey(key('f')) && isFitKey(key('F')) && isFitKey(key('Home')) && isFitKey(key('0')));
  assert.ok(!isFitKey(key('f', '', { ctrlKey: true })), 'Ctrl+F finds in the page');
  assert.equal(zoomFactor(key('+', '', { ctrlKey: true })), 0, 'Ctrl with + and − zoom the window');
  assert.ok(zoomFactor(key('+')) < 1 && zoomFactor(key('-')) > 1);
  for (const other of ['a', 'Tab', 'Enter', ' ', 'Escape']) assert.ok(!isViewKey(key(other, other)), other);
});

test('in a worker, the canvas\'s stand-in takes listeners, sizes and relayed events as the canvas would', () => {
  const surface = new InputSurface();
  surface.resize(640, 480);
  assert.equal(surface.clientWidth, 640);
  assert.equal(surface.clientHeight, 480);
  assert.deepEqual(surface.getBoundingClientRect(), { left: 0, top: 0, right: 640, bottom: 480, width: 640, height: 480, x: 0, y: 0 });
  assert.equal(surface.ownerDocument, surface, 'moves of a captured pointer come to the canvas itself');
  const heard: string[] = [];
  const onDown = (event: RelayedEvent & { preventDefault(): void }) => {
    event.preventDefault();
    heard.push(`${event.type} ${event.clientX},${event.clientY} button ${event.button}`);
  };
  surface.addEventListener('pointerdown', onDown);
  const event: RelayedEvent = { type: 'pointerdown', pointerId: 1, pointerType: 'mouse', button: 2, buttons: 2, clientX: 10, clientY: 20, pageX: 10, pageY: 20, deltaX: 0, deltaY: 0, deltaMode: 0, key: '', code: '', ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  surface.dispatch(event);
  surface.dispatch({ ...event, type: 'pointermove' });
  surface.removeEventListener('pointerdown', onDown);
  surface.dispatch(event);
  assert.deepEqual(heard, ['pointerdown 10,20 button 2']);
});
