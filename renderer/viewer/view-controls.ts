// The camera's controls: OrbitControls for the pointer and the arrows, the stage's own keys (+ and − to
// zoom, F, Home or 0 to fit), whether the view is moving (the stage then draws the lighter copy of a large
// model) and whether the user has moved it at all (a resized view is fitted again until then).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { InputSurface } from './input-relay.ts';
import { fitDistance, frameCamera, type Frame } from './framing.ts';
import { isFitKey, isViewKey, zoomFactor, type KeyLike } from './view-keys.ts';

/** What OrbitControls and the keys listen to: the canvas, or an InputSurface standing in for it in a worker. */
export type InputTarget = HTMLElement | InputSurface;

/** How long a view stays 'moving' after the pointer lets go or a key turns it. */
const SETTLE_MS = 200;

export interface ViewControls {
  /** The pointer or a key is moving the view (and for a moment after). */
  readonly moving: boolean;
  /** The user has moved the camera since the view was last fitted. */
  readonly moved: boolean;
  /** Places the camera to show the whole of `sphere` (in world space). */
  fit(sphere: THREE.Sphere): void;
  resize(width: number, height: number): void;
  /** The pixels the page covers at the canvas's top and bottom; whether they changed. */
  setInsets(top: number, bottom: number): boolean;
  dispose(): void;
}

interface Hooks {
  onChange(): void;
  /** The view has come to rest after moving. */
  onSettle(): void;
  onFit(): void;
}

type KeyEvent = KeyLike & { preventDefault(): void };

export function createViewControls(camera: THREE.PerspectiveCamera, input: InputTarget, hooks: Hooks): ViewControls {
  const controls = new OrbitControls(camera, input as unknown as HTMLElement);
  controls.screenSpacePanning = true;
  // The keyboard too: arrows pan, Shift (or Ctrl) with the arrows turns; + and − zoom (handled below).
  controls.listenToKeyEvents(input as unknown as HTMLElement);
  let moved = false;
  /** The canvas's size and its covered bands (see framing.ts). */
  const frame: Frame = { width: 1, height: 1, top: 0, bottom: 0 };
  let moving = false;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;

  const startMoving = () => {
    moved = true;
    moving = true;
    clearTimeout(settleTimer);
  };
  const stopMoving = () => {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      moving = false;
      hooks.onSettle();
    }, SETTLE_MS);
  };
  const onKey = (event: KeyEvent) => {
    if (isFitKey(event)) {
      event.preventDefault();
      hooks.onFit();
      return;
    }
    if (!isViewKey(event)) return;
    const factor = zoomFactor(event);
    // Keys move the view without a start or an end.
    startMoving();
    stopMoving();
    if (!factor) return;
    event.preventDefault();
    camera.position.sub(controls.target).multiplyScalar(factor).add(controls.target);
    controls.update();
  };
  controls.addEventListener('change', hooks.onChange);
  controls.addEventListener('start', startMoving);
  controls.addEventListener('end', stopMoving);
  const keys = input as HTMLElement;
  keys.addEventListener('keydown', onKey as unknown as EventListener);

  return {
    get moving() {
      return moving;
    },
    get moved() {
      return moved;
    },
    fit(sphere) {
      // The covered bands already hold the labels' room: a smaller margin in the band between them.
      const distance = fitDistance(camera, sphere.radius, frame, frame.top + frame.bottom > 0 ? 1.08 : 1.15);
      const direction = new THREE.Vector3(0.55, 0.5, 0.68).normalize();
      camera.position.copy(sphere.center).addScaledVector(direction, distance);
      camera.near = distance / 1000;
      camera.far = distance * 20 + sphere.radius * 40;
      camera.updateProjectionMatrix();
      // Zooming stops before the camera passes into the model or the model shrinks to a dot on the plate.
      controls.minDistance = sphere.radius * 0.5;
      controls.maxDistance = distance * 4;
      controls.target.copy(sphere.center);
      controls.update();
      moved = false;
    },
    resize(width, height) {
      Object.assign(frame, { width, height });
      frameCamera(camera, frame);
      if ('resize' in input) input.resize(width, height);
    },
    setInsets(top, bottom) {
      if (top === frame.top && bottom === frame.bottom) return false;
      Object.assign(frame, { top, bottom });
      frameCamera(camera, frame);
      return true;
    },
    dispose() {
      clearTimeout(settleTimer);
      controls.removeEventListener('change', hooks.onChange);
      controls.removeEventListener('start', startMoving);
      controls.removeEventListener('end', stopMoving);
      keys.removeEventListener('keydown', onKey as unknown as EventListener);
      controls.stopListenToKeyEvents();
      controls.dispose();
    },
  };
}
