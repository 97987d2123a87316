// The viewer's three.js stage: renderer, camera, controls, lights, build plate. Loaded with import() by
// Viewer.svelte so three.js is a separate chunk fetched only when a preview opens. Renders on demand only.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { ParsedModel } from '../../common/models/index.ts';
import { DetailPolicy } from './detail-policy.ts';
import { buildModelObjects, displayScale, worldSize, worldSphere, type ModelObjects } from './model-mesh.ts';
import { buildPlate, PLATE_MM, type Plate, type PlateColours } from './plate.ts';
import type { LengthUnit } from '../../common/readable-number.ts';
import { buildSizeBox, type SizeBox, type SizeLabel } from './size-box.ts';
import type { UpAxis } from './up-axis.ts';

/** How much of a model with a proxy is drawn at rest; null for a model drawn whole always. */
export type Detail = { simplified: boolean; drawn: number; total: number } | null;

export interface StageOptions {
  /** Hears when the view at rest changes between the proxy and every triangle. */
  onDetail?: (detail: Detail) => void;
  /** Hears the side of the plate's grid cells, in mm, when a model is shown or turned. */
  onGrid?: (cellMm: number) => void;
  /** Hears where the size box's labels go after each frame (null while the box is hidden). */
  onSizeLabels?: (labels: SizeLabel[] | null) => void;
  /** The page's theme and units, from the start (see setLook). */
  look?: StageLook;
}

/** What the page's settings give the scene: its colours (CSS colours, from the theme) and the unit of the size labels. */
export interface StageLook {
  colours?: PlateColours & { background: string; lines: string };
  units?: LengthUnit;
}

/** How long a view stays 'moving' after the pointer lets go or a key turns it. */
const SETTLE_MS = 200;

export interface Stage {
  show(model: ParsedModel, up: UpAxis): void;
  /** Turns the model shown so that `up` points up, and fits the view to it again. */
  setUpAxis(up: UpAxis): void;
  /** Draws every triangle at rest, however slow (the user asked). */
  showEveryTriangle(): void;
  /** Adds what the topology pass found (open edges) to the model on show, without rebuilding it. */
  showOpenEdgesOf(model: ParsedModel, visible: boolean): void;
  setWireframe(on: boolean): void;
  setOpenEdges(on: boolean): void;
  /** Shows or hides the model's box with its sides' lengths (the dimensions overlay). */
  setSizeBox(on: boolean): void;
  fit(): void;
  /** Pixels at the canvas's top and bottom that size labels keep clear of (the tool row, the notes). */
  setLabelInsets(top: number, bottom: number): void;
  /** Takes the page's theme colours and size unit: light or dark, mm or inches. */
  setLook(look: StageLook): void;
  resize(width: number, height: number): void;
  /** Frees every GPU resource and the WebGL context itself. */
  dispose(): void;
}

export function createStage(canvas: HTMLCanvasElement, options: StageOptions = {}): Stage {
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, globalThis.devicePixelRatio ?? 1));
  let look: StageLook = options.look ?? {};
  renderer.setClearColor(look.colours?.background ?? 0xf7f8fa);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(35, 1, 0.1, 10_000);
  camera.position.set(200, 180, 260);
  scene.add(camera);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8f96, 1.6));
  // A key light riding with the camera: whichever side the user looks at is lit and shows its relief.
  const key = new THREE.DirectionalLight(0xffffff, 2.2);
  key.position.set(0.6, 1, 0.8);
  camera.add(key);
  let plate: Plate = buildPlate(0, 0, PLATE_MM, look.colours);
  scene.add(plate.group);
  const controls = new OrbitControls(camera, canvas);
  controls.screenSpacePanning = true;
  // The keyboard too: arrows pan, Shift (or Ctrl) with the arrows turns; + and − zoom (handled below).
  controls.listenToKeyEvents(canvas);
  // Until the user moves the camera, a resized view is fitted again rather than cropped.
  let moved = false;
  controls.addEventListener('start', () => (moved = true));
  const zoomKeys = (event: KeyboardEvent) => {
    // F, Home or 0 fit the view again, as the toolbar's button does.
    if (['f', 'F', 'Home', '0'].includes(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      fit();
      return;
    }
    const factor = event.key === '+' || event.key === '=' ? 0.85 : event.key === '-' || event.key === '_' ? 1 / 0.85 : 0;
    if (!factor) return;
    event.preventDefault();
    moved = true;
    camera.position.sub(controls.target).multiplyScalar(factor).add(controls.target);
    controls.update();
  };
  canvas.addEventListener('keydown', zoomKeys);

  let objects: ModelObjects | null = null;
  let sizeBox: SizeBox | null = null;
  let sizeBoxOn = true;
  let current: ParsedModel | null = null;
  let up: UpAxis = 'z';
  /** The canvas's bands under the tool row and above the notes, where size labels would be covered. */
  let labelInsets = { top: 10, bottom: 10 };
  let frame = 0;
  // Level of detail, for a model that came with a proxy.
  let policy: DetailPolicy | null = null;
  let moving = false;
  let everyTriangle = false;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  let reported: boolean | null = null;

  const report = (proxy: boolean) => {
    if (moving || !current?.proxy || reported === proxy) return;
    reported = proxy;
    options.onDetail?.({ simplified: proxy, drawn: proxy ? current.proxy.triangles : current.facts.triangles, total: current.facts.triangles });
  };

  /**
   * Times the frame just drawn (until the page can run the next). At rest it draws again when the measure
   * changes the choice, or when the proxy's first frame (which also compiled and uploaded) is all that is
   * known; the note is shown only once the choice is settled, so it does not flash on a fast GPU.
   */
  const measure = (measured: DetailPolicy, proxy: boolean, started: number) => {
    requestAnimationFrame(() => {
      if (policy !== measured) return;
      measured.record(proxy, performance.now() - started);
      const wanted = measured.useProxy(false, everyTriangle);
      const warming = proxy && measured.wantsWarmFrame(true);
      if (wanted === proxy && !warming) report(proxy);
      if (!moving && (wanted !== proxy || warming)) requestRender();
    });
  };

  const render = () => {
    frame = 0;
    const proxy = policy ? policy.useProxy(moving, everyTriangle) : false;
    objects?.useProxy(proxy);
    // Seen from below, the plate would draw its grid over the model's underside: it steps aside.
    plate.group.visible = camera.position.y >= 0;
    const started = performance.now();
    renderer.render(scene, camera);
    if (policy) measure(policy, proxy, started);
    placeSizeLabels();
  };

  const canvasSize = new THREE.Vector2();
  const placeSizeLabels = () => {
    if (!sizeBox || !sizeBoxOn) return options.onSizeLabels?.(null);
    renderer.getSize(canvasSize);
    options.onSizeLabels?.(sizeBox.labels(camera, canvasSize.x, canvasSize.y, up, labelInsets));
  };
  const requestRender = () => {
    if (!frame) frame = requestAnimationFrame(render);
  };
  controls.addEventListener('change', requestRender);

  const settle = () => {
    moving = false;
    requestRender();
  };
  const startMoving = () => {
    moving = true;
    clearTimeout(settleTimer);
  };
  const stopMoving = () => {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(settle, SETTLE_MS);
  };
  controls.addEventListener('start', startMoving);
  controls.addEventListener('end', stopMoving);
  // Keys move the view without a start or an end.
  const keyMoves = () => {
    startMoving();
    stopMoving();
  };
  canvas.addEventListener('keydown', keyMoves);

  /** A plate, and a grid, the size of the model as it now stands. */
  const layPlate = (model: ParsedModel) => {
    const [width, height, depth] = worldSize(model, up);
    scene.remove(plate.group);
    plate.dispose();
    plate = buildPlate(width, depth, Math.max(width, height, depth), look.colours);
    scene.add(plate.group);
    options.onGrid?.(plate.cell / displayScale(model));
  };

  const fit = () => {
    const sphere = current ? worldSphere(current, up) : new THREE.Sphere(new THREE.Vector3(), PLATE_MM / 2);
    const halfFov = THREE.MathUtils.degToRad(camera.fov / 2);
    const distance = (sphere.radius / Math.sin(Math.min(halfFov, halfFov * camera.aspect))) * 1.15;
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
    requestRender();
  };

  return {
    show(model, upAxis) {
      if (objects) {
        scene.remove(objects.root);
        objects.dispose();
      }
      sizeBox?.dispose();
      current = model;
      up = upAxis;
      objects = buildModelObjects(model, up);
      sizeBox = buildSizeBox(model, { lines: look.colours?.lines, units: look.units });
      sizeBox.lines.visible = sizeBoxOn;
      objects.root.add(sizeBox.lines);
      layPlate(model);
      policy = model.proxy ? new DetailPolicy(model.facts.triangles, model.proxy.triangles) : null;
      everyTriangle = false;
      reported = null;
      if (!policy) options.onDetail?.(null);
      scene.add(objects.root);
      fit();
    },
    setUpAxis(upAxis) {
      up = upAxis;
      if (!current || !objects) return;
      objects.place(up);
      layPlate(current);
      fit();
    },
    showEveryTriangle() {
      everyTriangle = true;
      requestRender();
    },
    showOpenEdgesOf(model, visible) {
      if (!objects) return;
      objects.setOpenEdges(model.boundaryEdges);
      if (objects.openEdges) objects.openEdges.visible = visible;
      requestRender();
    },
    setWireframe(on) {
      if (objects) objects.surface.material.wireframe = on;
      // Lines cost the GPU far more than faces: what was measured for faces says nothing of them, so the
      // choice between the whole model and its proxy is measured again.
      if (current?.proxy) {
        policy = new DetailPolicy(current.facts.triangles, current.proxy.triangles);
        reported = null;
      }
      requestRender();
    },
    setOpenEdges(on) {
      if (objects?.openEdges) objects.openEdges.visible = on;
      requestRender();
    },
    setSizeBox(on) {
      sizeBoxOn = on;
      if (sizeBox) sizeBox.lines.visible = on;
      requestRender();
    },
    fit,
    setLabelInsets(top, bottom) {
      if (top === labelInsets.top && bottom === labelInsets.bottom) return;
      labelInsets = { top, bottom };
      requestRender();
    },
    setLook(next) {
      look = { ...look, ...next };
      if (look.colours) renderer.setClearColor(look.colours.background);
      if (!current || !objects) {
        scene.remove(plate.group);
        plate.dispose();
        plate = buildPlate(0, 0, PLATE_MM, look.colours);
        scene.add(plate.group);
      } else {
        layPlate(current);
        sizeBox?.lines.removeFromParent();
        sizeBox?.dispose();
        sizeBox = buildSizeBox(current, { lines: look.colours?.lines, units: look.units });
        sizeBox.lines.visible = sizeBoxOn;
        objects.root.add(sizeBox.lines);
      }
      requestRender();
    },
    resize(width, height) {
      if (width <= 0 || height <= 0) return;
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      if (current && !moved) fit();
      requestRender();
    },
    dispose() {
      if (frame) cancelAnimationFrame(frame);
      clearTimeout(settleTimer);
      policy = null;
      controls.removeEventListener('change', requestRender);
      controls.removeEventListener('start', startMoving);
      controls.removeEventListener('end', stopMoving);
      canvas.removeEventListener('keydown', zoomKeys);
      canvas.removeEventListener('keydown', keyMoves);
      controls.stopListenToKeyEvents();
      controls.dispose();
      objects?.dispose();
      sizeBox?.dispose();
      plate.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
    },
  };
}
