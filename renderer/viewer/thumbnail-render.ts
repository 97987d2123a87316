// Renders a parsed model to a small PNG, in a worker (stage-worker.ts) or on the page where a worker
// cannot draw. One WebGL context is kept for all thumbnails where they are drawn: browsers cap live
// contexts (about 16 in Chromium), so a context per library tile would evict the viewer's.
import * as THREE from 'three';
import { pictureOf, type ParsedModel } from '../../common/models/index.ts';
import { buildModelObjects, worldSphere } from './model-mesh.ts';
import type { UpAxis } from './up-axis.ts';

let renderer: THREE.WebGLRenderer | null = null;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
/** A context left unused this long is released: thumbnails come in bursts (an upload, a first listing). */
const IDLE_MS = 20_000;

function newCanvas(): HTMLCanvasElement | OffscreenCanvas {
  return typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
}

async function pngDataUrl(canvas: HTMLCanvasElement | OffscreenCanvas): Promise<string> {
  if (!('convertToBlob' in canvas)) return canvas.toDataURL('image/png');
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The thumbnail could not be encoded'));
    reader.readAsDataURL(blob);
  });
}

/** Draws the model's proxy when it has one: a 160-pixel picture shows no more of 2M triangles than of 150K. */
export async function renderThumbnail(model: ParsedModel, size: number, up: UpAxis): Promise<string> {
  renderer ??= new THREE.WebGLRenderer({ canvas: newCanvas(), antialias: true, preserveDrawingBuffer: true, alpha: true });
  renderer.setPixelRatio(1);
  renderer.setSize(size, size, false);
  renderer.setClearColor(0x000000, 0);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(30, 1, 0.1, 10_000);
  scene.add(camera, new THREE.HemisphereLight(0xffffff, 0x8a8f96, 1.6));
  const key = new THREE.DirectionalLight(0xffffff, 2.2);
  key.position.set(0.6, 1, 0.8);
  camera.add(key);
  const objects = buildModelObjects(pictureOf(model), up);
  scene.add(objects.root);
  const sphere = worldSphere(model, up);
  const distance = (sphere.radius / Math.sin(THREE.MathUtils.degToRad(15))) * 1.05;
  camera.position.copy(sphere.center).addScaledVector(new THREE.Vector3(0.55, 0.5, 0.68).normalize(), distance);
  camera.near = distance / 100;
  camera.far = distance * 10;
  camera.updateProjectionMatrix();
  camera.lookAt(sphere.center);
  clearTimeout(idleTimer);
  try {
    renderer.render(scene, camera);
    return await pngDataUrl(renderer.domElement);
  } finally {
    objects.dispose();
    idleTimer = setTimeout(disposeThumbnailRenderer, IDLE_MS);
  }
}

/** Releases the shared thumbnail context; the next thumbnail makes a new one. */
export function disposeThumbnailRenderer(): void {
  clearTimeout(idleTimer);
  renderer?.dispose();
  renderer?.forceContextLoss();
  renderer = null;
}
