// three.js objects for a parsed model. Imported only from lazily loaded modules, so three stays in its own
// chunk. Positions (and indices, for OBJ and 3MF) are used as they come from the worker, with no normals:
// flat shading derives them in the fragment shader, which saves a normal buffer as big as the positions.
import * as THREE from 'three';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import { LineSegments2 } from 'three/examples/jsm/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/examples/jsm/lines/LineSegmentsGeometry.js';
import type { ParsedModel } from '../../common/models/index.ts';
import type { UpAxis } from './up-axis.ts';

const MODEL_COLOR = 0x4f8fd6;
const OPEN_EDGE_COLOR = 0xe0262b;

/** 3MF colours are sRGB bytes; three expects linear vertex colours. */
const SRGB_TO_LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  SRGB_TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function linearColors(rgba: Uint8Array): Float32Array {
  const out = new Float32Array((rgba.length / 4) * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    out[j] = SRGB_TO_LINEAR[rgba[i]];
    out[j + 1] = SRGB_TO_LINEAR[rgba[i + 1]];
    out[j + 2] = SRGB_TO_LINEAR[rgba[i + 2]];
  }
  return out;
}

export interface ModelObjects {
  /** The model turned so that its up axis is three's (Y), centred on the plate and resting on it. */
  root: THREE.Group;
  /** Turns and places the model for another up axis. */
  place(up: UpAxis): void;
  /** Shared by every copy drawn: wireframe and colours apply to whichever it is. */
  material: THREE.MeshStandardMaterial;
  /** The model's lighter copy, drawn instead of every triangle while they would be too slow, or not in yet. */
  proxy: THREE.Mesh<THREE.BufferGeometry, THREE.MeshStandardMaterial> | null;
  /** Whether every triangle is uploaded and can be drawn (a model with a proxy gets them part by part). */
  readonly complete: boolean;
  /** Whether the arrays of every triangle are here (a model shown as its proxy first gets them later). */
  readonly hasEveryTriangle: boolean;
  /** Every triangle of a model built with its arrays to follow, loaded part by part from now on. */
  addEveryTriangle(model: ParsedModel): void;
  /** Triangles of every-triangle copy readied so far. */
  readonly loadedTriangles: number;
  /**
   * Readies about `triangles` more of the whole model for the next frame to upload, unseen until all of
   * it is in, and takes the part the last frame uploaded as done. False once nothing is left to ready.
   */
  loadMore(triangles: number): boolean;
  /** Uploads the part readied by loadMore with a render that draws nothing, so the picture on screen stays. */
  uploadWith(renderer: THREE.WebGLRenderer, camera: THREE.Camera): void;
  /** Draws the proxy (when there is one) instead of every triangle, or every triangle again. */
  useProxy(on: boolean): void;
  openEdges: LineSegments2 | null;
  /** Draws open edges (segments in model space) over the surface, replacing any drawn before. */
  setOpenEdges(segments: Float32Array | undefined): void;
  dispose(): void;
}

/** Open edges in CSS pixels: WebGL draws plain lines one pixel wide, too thin to find a hole by. */
const OPEN_EDGE_WIDTH = 3;
const viewSize = new THREE.Vector2();

function openEdgeLines(segments: Float32Array): LineSegments2 {
  // Drawn a little nearer than the surface they lie on, so they are not half hidden in it. (Pushing the
  // surface back instead let a plate 0.05 mm under a 0.2 mm sheet cover it at a grazing angle.)
  const material = new LineMaterial({ color: OPEN_EDGE_COLOR, linewidth: OPEN_EDGE_WIDTH, polygonOffset: true, polygonOffsetFactor: -1, polygonOffsetUnits: -4 });
  const lines = new LineSegments2(new LineSegmentsGeometry().setPositions(segments), material);
  // The width is measured against the canvas, whichever canvas draws it.
  lines.onBeforeRender = (renderer) => material.resolution.copy(renderer.getSize(viewSize));
  lines.renderOrder = 1;
  return lines;
}

/** Beyond this size (10 m) the model is drawn scaled down: see displayScale. */
const LARGEST_DRAWN_MM = 10_000;

/**
 * 1, or less for a model too large to draw at its size (junk coordinates, a file in the wrong unit): the
 * shader's flat-shading normals come from the square of screen-space derivatives, which overflows float32
 * near 1e19 and drew such a model black. The size shown beside the preview stays the real one.
 */
export function displayScale(model: ParsedModel): number {
  const diagonal = Math.hypot(...model.facts.size);
  return diagonal > LARGEST_DRAWN_MM ? LARGEST_DRAWN_MM / diagonal : 1;
}

function geometryOf(positions: Float32Array | THREE.BufferAttribute, indices: Uint32Array | undefined, colors: Uint8Array | undefined, sphere: THREE.Sphere): THREE.BufferGeometry {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', positions instanceof THREE.BufferAttribute ? positions : new THREE.BufferAttribute(positions, 3));
  if (indices) geometry.setIndex(new THREE.BufferAttribute(indices, 1));
  if (colors) geometry.setAttribute('color', new THREE.BufferAttribute(linearColors(colors), 3));
  // Known from the facts: three would otherwise read every point to find it.
  geometry.boundingSphere = sphere;
  return geometry;
}

/** A part of the whole model not yet uploaded: drawn with this, it is uploaded by a frame and shows nothing. */
const UPLOAD_ONLY = new THREE.MeshBasicMaterial({ visible: false });

/**
 * Every triangle of the model as meshes of a range of triangles each, readied one by one: three uploads a
 * mesh's buffers on the first frame it is in view, and a buffer of 2M triangles is 72 MB, several frames'
 * worth of time in one. A model drawn without a proxy is one part, in from the start.
 */
class WholeModel {
  readonly group = new THREE.Group();
  private readonly parts: THREE.Mesh[] = [];
  private readonly model: ParsedModel;
  private readonly material: THREE.MeshStandardMaterial;
  private readonly sphere: THREE.Sphere;
  /** Shared by the parts of an indexed model: its vertex table is uploaded once, with the first part. */
  private readonly table: THREE.BufferAttribute | null;
  private next = 0;
  private uploading: THREE.Mesh | null = null;
  private readonly uploadScene = new THREE.Scene();
  private shown = true;

  constructor(model: ParsedModel, material: THREE.MeshStandardMaterial, sphere: THREE.Sphere, inParts: boolean) {
    this.model = model;
    this.material = material;
    this.sphere = sphere;
    this.table = model.indices ? new THREE.BufferAttribute(model.positions, 3) : null;
    if (!inParts) {
      this.add(model.facts.triangles);
      this.next = model.facts.triangles;
    }
  }

  get complete(): boolean {
    return this.uploading === null && this.next >= this.model.facts.triangles;
  }

  get loadedTriangles(): number {
    return this.next;
  }

  private add(end: number): THREE.Mesh {
    const { positions, indices, colors } = this.model;
    const [first, last] = [this.next, Math.min(end, this.model.facts.triangles)];
    const geometry = indices
      ? geometryOf(this.table!, indices.subarray(first * 3, last * 3), undefined, this.sphere)
      : geometryOf(positions.subarray(first * 9, last * 9), undefined, colors?.subarray(first * 12, last * 12), this.sphere);
    const part = new THREE.Mesh(geometry, this.material);
    part.visible = this.shown;
    this.parts.push(part);
    this.group.add(part);
    this.next = last;
    return part;
  }

  loadMore(triangles: number): boolean {
    if (this.uploading) {
      this.uploading.material = this.material;
      this.uploading.visible = this.shown;
      this.uploading.frustumCulled = true;
      this.uploading = null;
    }
    if (this.next >= this.model.facts.triangles) return false;
    const part = this.add(this.next + Math.max(1, Math.round(triangles)));
    part.material = UPLOAD_ONLY;
    // Uploaded whatever the camera sees: three uploads only what passes its view test.
    part.frustumCulled = false;
    part.visible = true;
    this.uploading = part;
    return true;
  }

  uploadWith(renderer: THREE.WebGLRenderer, camera: THREE.Camera): void {
    const part = this.uploading;
    if (!part) return;
    // Alone in a scene of its own and drawn with an invisible material: three uploads its buffers and
    // issues no draw call, and without a clear either the canvas keeps the frame it shows.
    this.uploadScene.add(part);
    const autoClear = renderer.autoClear;
    renderer.autoClear = false;
    try {
      renderer.render(this.uploadScene, camera);
    } finally {
      renderer.autoClear = autoClear;
      this.group.add(part);
      part.matrixWorldNeedsUpdate = true;
    }
  }

  show(on: boolean): void {
    this.shown = on;
    for (const part of this.parts) if (part !== this.uploading) part.visible = on;
  }

  dispose(): void {
    for (const part of this.parts) part.geometry.dispose();
  }
}

/** Turns the model's up axis into three's Y (a Z-up model a quarter turn about X), centred and on the plate. */
function placeRoot(root: THREE.Group, model: ParsedModel, up: UpAxis): void {
  const { min, max } = model.facts.bounds;
  const scale = displayScale(model);
  const centre = (axis: number) => ((min[axis] + max[axis]) / 2) * scale;
  root.scale.setScalar(scale);
  if (up === 'z') {
    // (x, y, z) becomes (x, z, -y).
    root.rotation.set(-Math.PI / 2, 0, 0);
    root.position.set(-centre(0), -min[2] * scale, centre(1));
  } else {
    root.rotation.set(0, 0, 0);
    root.position.set(-centre(0), -min[1] * scale, -centre(2));
  }
}

/** The objects a model is drawn with; with `arraysFollow`, its proxy only until addEveryTriangle. */
export function buildModelObjects(model: ParsedModel, up: UpAxis = 'z', arraysFollow = false): ModelObjects {
  const material = new THREE.MeshStandardMaterial({
    color: model.colors ? 0xffffff : MODEL_COLOR,
    vertexColors: Boolean(model.colors),
    flatShading: true,
    roughness: 0.75,
    metalness: 0,
    // Open meshes show their inside instead of vanishing where a face is missing.
    side: THREE.DoubleSide,
  });
  const { min, max } = model.facts.bounds;
  const sphere = new THREE.Sphere(
    new THREE.Vector3((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2),
    Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2,
  );
  // A model with a proxy draws that first, while every triangle comes in part by part.
  const root = new THREE.Group();
  let whole: WholeModel | null = null;
  let proxyOn = false;
  const addWhole = (complete: ParsedModel) => {
    whole = new WholeModel(complete, material, sphere, Boolean(complete.proxy));
    whole.show(!proxyOn);
    root.add(whole.group);
  };
  if (!arraysFollow) addWhole(model);
  const proxy = model.proxy ? new THREE.Mesh(geometryOf(model.proxy.positions, model.proxy.indices, model.proxy.colors, sphere.clone()), material) : null;
  if (proxy) {
    proxy.visible = false;
    root.add(proxy);
  }
  placeRoot(root, model, up);

  const objects: ModelObjects = {
    root,
    place: (next) => placeRoot(root, model, next),
    material,
    proxy,
    get complete() {
      return whole?.complete ?? false;
    },
    get loadedTriangles() {
      return whole?.loadedTriangles ?? 0;
    },
    get hasEveryTriangle() {
      return whole !== null;
    },
    addEveryTriangle(complete) {
      if (!whole) addWhole(complete);
    },
    loadMore: (triangles) => whole?.loadMore(triangles) ?? false,
    uploadWith: (renderer, camera) => whole?.uploadWith(renderer, camera),
    useProxy(on) {
      if (!proxy) return;
      proxyOn = on;
      proxy.visible = on;
      whole?.show(!on);
    },
    openEdges: null,
    setOpenEdges(segments) {
      const old = objects.openEdges;
      if (old) {
        root.remove(old);
        old.geometry.dispose();
        old.material.dispose();
      }
      objects.openEdges = segments && segments.length > 0 ? openEdgeLines(segments) : null;
      if (objects.openEdges) root.add(objects.openEdges);
    },
    dispose() {
      whole?.dispose();
      proxy?.geometry.dispose();
      material.dispose();
      objects.setOpenEdges(undefined);
    },
  };
  objects.setOpenEdges(model.boundaryEdges);
  return objects;
}

/** The model's size in world space after placement: width (x), height (y) and depth (z), in scene units. */
export function worldSize(model: ParsedModel, up: UpAxis): [number, number, number] {
  const scale = displayScale(model);
  const [sx, sy, sz] = model.facts.size.map((side) => side * scale);
  return up === 'z' ? [sx, sz, sy] : [sx, sy, sz];
}

/** Centre and radius of the model in world space after placement on the plate. */
export function worldSphere(model: ParsedModel, up: UpAxis): THREE.Sphere {
  const [width, height, depth] = worldSize(model, up);
  return new THREE.Sphere(new THREE.Vector3(0, height / 2, 0), Math.max(1e-9, Math.hypot(width, height, depth) / 2));
}
