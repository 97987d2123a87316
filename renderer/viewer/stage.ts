// The viewer's three.js stage: renderer, camera, controls, lights, build plate. It runs where it is made:
// in a worker on an OffscreenCanvas (stage-worker.ts), with the page's input relayed to an InputSurface,
// or on the page itself where that cannot be (Viewer.svelte loads it with import(), so three.js is a
// chunk fetched only when a preview opens). Renders on demand only.
import * as THREE from 'three';
import type { ParsedModel } from '../../common/models/index.ts';
import { DetailPolicy } from './detail-policy.ts';
import { wallClock, type StageMarks } from './marks.ts';
import type { Detail, Stage, StageOptions } from './stage-api.ts';
import { warmShaders } from './warm-shaders.ts';
import { pictureModel } from './first-picture.ts';
import { buildModelObjects, worldSphere, type ModelObjects } from './model-mesh.ts';
import { PLATE_MM } from './plate.ts';
import { LIGHT_LOOK, type ViewerLook } from './look.ts';
import { createScenery } from './scenery.ts';
import { renderThumbnail } from './thumbnail-render.ts';
import type { UpAxis } from './up-axis.ts';
import { MotionResolution, softwareRendering } from './motion-resolution.ts';
import { UploadPacer } from './upload-pacer.ts';
import { createViewControls } from './view-controls.ts';

export type { Detail, ShownModel, Stage, StageOptions } from './stage-api.ts';

const sameLook = (a: ViewerLook, b: ViewerLook) => (Object.keys(a) as (keyof ViewerLook)[]).every((key) => a[key] === b[key]);

export function createStage(canvas: HTMLCanvasElement | OffscreenCanvas, options: StageOptions = {}): Stage {
  // Without a GPU, multisampling triples what every frame costs, the moving view's too. The view at rest is
  // smoothed instead by drawing it at twice the resolution, which the canvas scales down; a moving view is
  // drawn at its own resolution or less (see sharpness below).
  const software = softwareRendering();
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: !software, preserveDrawingBuffer: options.preserveDrawingBuffer ?? true });
  const pixelRatio = Math.min(2, options.pixelRatio ?? 1);
  const restingRatio = software ? Math.max(pixelRatio, Math.min(2, pixelRatio * 2)) : pixelRatio;
  renderer.setPixelRatio(restingRatio);
  const motion = new MotionResolution();
  /** The canvas's size in CSS pixels, and the pixel ratio it is drawn at now. */
  const view = { width: 1, height: 1, ratio: restingRatio };
  renderer.setClearColor((options.look ?? LIGHT_LOOK).background);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(35, 1, 0.1, 10_000);
  camera.position.set(200, 180, 260);
  scene.add(camera);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8f96, 1.6));
  // A key light riding with the camera: whichever side the user looks at is lit and shows its relief.
  const key = new THREE.DirectionalLight(0xffffff, 2.2);
  key.position.set(0.6, 1, 0.8);
  camera.add(key);
  const scenery = createScenery(scene, options.look ?? LIGHT_LOOK);
  const releaseShaders = warmShaders(renderer, scene, camera);

  let objects: ModelObjects | null = null;
  let current: ParsedModel | null = null;
  let up: UpAxis = 'z';
  let frame = 0;
  /** A model given to show() and not yet drawn, and when its stages were. */
  let unseen = false;
  let marks: StageMarks = {};
  // Level of detail, for a model that came with a proxy.
  let policy: DetailPolicy | null = null;
  let everyTriangle = false;
  let reported: Detail = null;
  // Every triangle of a model with a proxy, uploaded part by part in frames the view does not need.
  let pacer = new UploadPacer();
  let uploadStep = 0;

  const controls = createViewControls(camera, options.input ?? (canvas as HTMLCanvasElement), {
    onChange: () => requestRender(),
    onSettle: () => requestRender(),
    onFit: () => fit(),
  });

  const detailNow = (proxy: boolean): Detail => {
    if (!current?.proxy || !objects) return null;
    const total = current.facts.triangles;
    return { simplified: proxy, drawn: proxy ? current.proxy.triangles : total, total, loaded: objects.complete ? 1 : objects.loadedTriangles / total };
  };

  const report = (detail: Detail) => {
    if (detail && reported && detail.simplified === reported.simplified && detail.loaded === reported.loaded) return;
    reported = detail;
    options.onDetail?.(detail);
  };

  /**
   * Times the frame just drawn (until the stage can run the next). At rest it draws again when the measure
   * changes the choice, or when the proxy's first frame (which also compiled and uploaded) is all that is
   * known; the note is shown only once the choice is settled, so it does not flash on a fast GPU.
   */
  const measure = (measured: DetailPolicy, proxy: boolean, started: number) => {
    requestAnimationFrame(() => {
      if (policy !== measured) return;
      measured.record(proxy, performance.now() - started);
      if (!objects?.complete) return;
      const wanted = measured.useProxy(false, everyTriangle);
      const warming = proxy && measured.wantsWarmFrame(true);
      if (wanted === proxy && !warming && !controls.moving) report(detailNow(proxy));
      if (!controls.moving && (wanted !== proxy || warming)) requestRender();
    });
  };

  /** Draws a moving view with fewer pixels when a frame of it costs too much (software WebGL), and sharp at rest. */
  const sharpness = (moving: boolean, quick: boolean) => {
    const ratio = moving ? pixelRatio * motion.scale : quick ? pixelRatio : restingRatio;
    if (ratio === view.ratio) return;
    view.ratio = ratio;
    renderer.setPixelRatio(ratio);
    renderer.setSize(view.width, view.height, false);
  };

  const render = () => {
    frame = 0;
    const loading = objects !== null && !objects.complete;
    const moving = controls.moving;
    const proxy = policy ? loading || policy.useProxy(moving, everyTriangle) : false;
    objects?.useProxy(proxy);
    // Without a GPU, a model's first frame is drawn at the view's own resolution, a quarter of the pixels
    // of the sharp view at rest: it is on screen sooner, and the sharp frame follows at once. So is the
    // empty plate shown while a model is on its way, which would otherwise hold up the model's frame. (At
    // half that, the frame was blocky to the eye and on screen only about a tenth of a second sooner.)
    const quick = software && !moving && (unseen || !objects);
    sharpness(moving, quick);
    scenery.plateSeenFrom(camera);
    const started = performance.now();
    renderer.render(scene, camera);
    // The choice of copy is made on frames at full resolution: a smaller moving frame says less of them.
    if (policy && !moving && !quick) measure(policy, proxy, started);
    if (moving) requestAnimationFrame(() => motion.record(performance.now() - started));
    placeSizeLabels();
    const shown = unseen && objects !== null;
    unseen = false;
    if (shown) {
      options.onMarks?.({ ...marks, 'stage-drawn': wallClock() });
      // The next animation frame comes once this one is done (without a GPU, rasterized): it is on screen.
      requestAnimationFrame(() => {
        options.onMarks?.({ 'stage-frame-done': wallClock() });
        if (quick) requestRender();
      });
    }
    options.onFrame?.(shown, { geometries: renderer.info.memory.geometries, textures: renderer.info.memory.textures });
    if (loading) scheduleUpload();
  };

  /**
   * Readies the next part of every triangle and lets a frame that draws nothing upload it: the picture on
   * screen stays, and a view being turned gets its frames first.
   */
  const upload = () => {
    uploadStep = 0;
    const loading = objects;
    // Nothing to load until every triangle is here (addTriangles schedules the loading then).
    if (!loading || loading.complete || !loading.hasEveryTriangle) return;
    if (frame) return scheduleUpload();
    const triangles = pacer.next;
    const more = loading.loadMore(triangles);
    const started = performance.now();
    if (more) loading.uploadWith(renderer, camera);
    requestAnimationFrame(() => {
      if (objects !== loading) return;
      if (more) pacer.record(triangles, performance.now() - started);
      report(detailNow(true));
      if (loading.complete) requestRender();
      else scheduleUpload();
    });
  };
  const scheduleUpload = () => {
    if (!uploadStep) uploadStep = requestAnimationFrame(upload);
  };

  const canvasSize = new THREE.Vector2();
  const placeSizeLabels = () => {
    renderer.getSize(canvasSize);
    options.onSizeLabels?.(scenery.labels(camera, canvasSize.x, canvasSize.y, up));
  };
  function requestRender() {
    if (!frame) frame = requestAnimationFrame(render);
  }


  /** A plate, and a grid, the size of the model as it now stands. */
  const layPlate = () => {
    const cell = scenery.layPlate(current, up);
    if (cell !== null) options.onGrid?.(cell);
  };

  /** Stops what is scheduled and frees the model's GPU resources: what clearing and disposing share. */
  function takeDown() {
    if (frame) cancelAnimationFrame(frame);
    if (uploadStep) cancelAnimationFrame(uploadStep);
    frame = uploadStep = 0;
    policy = null;
    reported = null;
    unseen = false;
    marks = {};
    if (objects) scene.remove(objects.root);
    objects?.dispose();
    objects = null;
    scenery.dropSizeBox();
  }

  function fit() {
    const sphere = current ? worldSphere(current, up) : new THREE.Sphere(new THREE.Vector3(), PLATE_MM / 2);
    controls.fit(sphere);
    requestRender();
  }

  const newPolicy = () => (current?.proxy ? new DetailPolicy(current.facts.triangles, current.proxy.triangles) : null);

  function show(model: ParsedModel, upAxis: UpAxis, arraysFollow = false) {
    marks = { 'stage-got': wallClock() };
    if (objects) {
      scene.remove(objects.root);
      objects.dispose();
    }
    current = model;
    up = upAxis;
    objects = buildModelObjects(model, up, arraysFollow);
    marks['stage-built'] = wallClock();
    scenery.boxModel(model, objects?.root);
    layPlate();
    policy = newPolicy();
    pacer = new UploadPacer();
    everyTriangle = false;
    reported = null;
    unseen = true;
    report(detailNow(true));
    scene.add(objects.root);
    fit();
  }

  return {
    show,
    showPicture(picture, upAxis) {
      show(pictureModel(picture), upAxis, true);
    },
    addTriangles(arrays) {
      if (!current || !objects) return;
      current = { ...current, ...arrays };
      objects.addEveryTriangle(current);
      scheduleUpload();
    },
    setUpAxis(upAxis) {
      up = upAxis;
      if (!current || !objects) return;
      objects.place(up);
      layPlate();
      fit();
    },
    showEveryTriangle() {
      everyTriangle = true;
      requestRender();
    },
    showOpenEdgesOf(segments, visible) {
      if (!objects) return;
      objects.setOpenEdges(segments);
      if (objects.openEdges) objects.openEdges.visible = visible;
      requestRender();
    },
    setWireframe(on) {
      if (objects) objects.material.wireframe = on;
      // Lines cost the GPU far more than faces: what was measured for faces says nothing of them, so the
      // choice between the whole model and its proxy is measured again.
      if (current?.proxy) {
        policy = newPolicy();
        reported = null;
      }
      // Settings given to a stage with no model draw nothing: without a GPU a frame holds the worker up to
      // half a second, and a model on its way would wait behind it.
      if (objects) requestRender();
    },
    setOpenEdges(on) {
      if (objects?.openEdges) objects.openEdges.visible = on;
      if (objects) requestRender();
    },
    setSizeBox(on) {
      scenery.setSizeBox(on);
      if (objects) requestRender();
    },
    setLook(next) {
      if (sameLook(scenery.look, next)) return;
      scenery.setLook(next);
      renderer.setClearColor(next.background);
      layPlate();
      // The labels' unit is the box's own: built again, not recoloured.
      if (current) scenery.boxModel(current, objects?.root);
      requestRender();
    },
    fit,
    setLabelInsets(top, bottom) {
      // The camera centres the model below the tool row (framing.ts), fitted again until the user moves it. Not
      // above the notes: they come and go as a model loads, and the model would move with them.
      const reframed = controls.setInsets(top, 0);
      if (reframed && current && !controls.moved) fit();
      if (scenery.setLabelInsets(top, bottom) || reframed) requestRender();
    },
    resize(width, height) {
      if (width <= 0 || height <= 0 || (width === view.width && height === view.height)) return;
      Object.assign(view, { width, height });
      renderer.setSize(width, height, false);
      controls.resize(width, height);
      if (current && !controls.moved) fit();
      requestRender();
    },
    picture(size) {
      if (!current) return Promise.reject(new Error('No model is shown'));
      return renderThumbnail(current, size, up);
    },
    clear() {
      takeDown();
      current = null;
      up = 'z';
      layPlate();
      // The next preview's first frame is drawn sharp, whatever this one's motion had come to.
      motion.scale = 1;
      // Drawn empty now, off the page, so the next preview shows a plate, never the last model, and has
      // nothing to draw before its own. Not at an animation frame: a canvas off the page may get none.
      render();
    },
    dispose() {
      takeDown();
      releaseShaders();
      controls.dispose();
      scenery.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
    },
  };
}
