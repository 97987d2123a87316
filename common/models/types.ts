import type { ModelErrorWhere } from './errors.ts';
import type { Measures } from './measure.ts';
import type { ProxyMesh } from './proxy.ts';
import type { Conformance, Violations } from './spec-rules.ts';
import type { UnitName } from './units.ts';

export type ModelFormat = 'stl-binary' | 'stl-ascii' | 'obj' | '3mf';

export type Vec3 = [number, number, number];

/** What a buyer wants to know before paying for a print. Lengths in mm, volume in mm³, area in mm². */
export interface ModelFacts {
  triangles: number;
  bounds: { min: Vec3; max: Vec3 };
  size: Vec3;
  /** |Σ signed tetrahedron volumes|; meaningful only when watertight. */
  volume: number;
  area: number;
  /**
   * Whether the edge counts, shells and watertightness below are known: `pending` in the early facts a
   * preview gets before the topology pass, `skipped` when it was not asked for (they read 0 and false).
   */
  topology: 'checked' | 'pending' | 'skipped';
  /** Edges used by exactly one triangle: holes. */
  openEdges: number;
  /** Edges shared by three or more triangles. */
  nonManifoldEdges: number;
  /** Edges whose two triangles traverse them the same way: flipped normals. */
  inconsistentEdges: number;
  /** Triangles with (near) zero area. */
  degenerateTriangles: number;
  /** Connected pieces, counted over vertices welded by position. */
  shells: number;
  /** No open and no non-manifold edges: the mesh encloses a volume. */
  watertight: boolean;
  /** Unit the file declares (3MF), or millimetre assumed (STL/OBJ); `guess` when the size looks wrong for it. */
  unit: { declared: UnitName | null; assumed: UnitName; guess?: { unit: UnitName; sizeMm: Vec3; reason: string } };
  warnings: string[];
  /**
   * What breaks the format's specification (3MF: the core specification and the materials extension; STL
   * and OBJ have none to check).
   */
  conformance: Conformance;
}

export interface ParsedModel {
  format: ModelFormat;
  /**
   * Points in mm, 3 floats each: a triangle soup (9 floats per triangle), or with `indices` the file's
   * vertex table. Normals are left to the viewer's shader either way.
   */
  positions: Float32Array;
  /**
   * Three indices into `positions` per triangle, when the format indexes its vertices and has no per-corner
   * colours (OBJ, 3MF): a sixth of a soup's points for a closed mesh.
   */
  indices?: Uint32Array;
  /** sRGB RGBA, 4 bytes per triangle corner (so 12 per triangle), present only when the file has colours. */
  colors?: Uint8Array;
  /** Open (boundary) edges as line segments in mm, 6 floats per edge, when asked for. */
  boundaryEdges?: Float32Array;
  /** A lighter copy for pictures (see proxy.ts), when asked for and the model is larger than its budget. */
  proxy?: ProxyMesh;
  facts: ModelFacts;
}

/** From when the geometry pass no longer reads a model's arrays: see ParseOptions.onMeasured. */
export type ArraysFree = 'now' | 'after weld' | 'at the end';

/** A model's every-triangle arrays: what a preview that drew its proxy first is sent after. */
export type ModelArrays = Pick<ParsedModel, 'positions' | 'indices' | 'colors'>;

export interface ParseOptions {
  /** Called with 0…1 now and then on large inputs. */
  onProgress?: (fraction: number) => void;
  /** Refuse more triangles than this (TOO_LARGE). Default 50 million. */
  maxTriangles?: number;
  /** Refuse a 3MF whose model parts decompress to more than this many bytes (ZIP_BOMB). Default 1 GiB. */
  maxUnzippedBytes?: number;
  /** Also return the open edges as segments (for the viewer's highlight). */
  boundaryEdges?: boolean;
  /** Skip welding, edges and shells (watertight is then unknown: reported false with a warning). */
  skipTopology?: boolean;
  /**
   * A native inflater for a 3MF's parts (zlib in Node, DecompressionStream's output in a browser):
   * exactly `size` bytes of the raw deflate stream, throwing rather than going past them. Undefined, or
   * undefined from it, means the built-in one (fflate), which is several times slower.
   */
  inflateRaw?: (compressed: Uint8Array, size: number, name: string) => Uint8Array | undefined;
  /**
   * Hears the model as soon as it is read and measured, before the topology pass: its arrays are the ones
   * the final model will carry, and `facts.topology` is `pending`. `arraysFree` says from when the rest of
   * the pass leaves its positions and indices alone, so that they may be handed away: at once (it welds a
   * vertex table the model does not carry), once `onWelded` is heard (a soup: the topology reads the
   * weld's own points), or only at the end (a vertex table).
   */
  onMeasured?: (model: ParsedModel, arraysFree: ArraysFree) => void;
  /** Hears that the weld is done, and with it the reading of a soup's positions (see onMeasured). */
  onWelded?: () => void;
  /**
   * The bytes are the caller's to give up: a parser may write over them and return arrays sharing their
   * buffer (binary STL gathers its positions in place). Only for bytes nothing else will read again.
   */
  bytesOwned?: boolean;
}

export const DEFAULT_MAX_TRIANGLES = 50_000_000;
export const DEFAULT_MAX_UNZIPPED_BYTES = 1024 * 1024 * 1024;

/**
 * What a parser hands to the geometry pass: a soup (`positions`), or a vertex table and each corner's
 * index into it (`vertices`, `corners`), or both when per-corner colours need a soup. The geometry pass
 * welds V vertices of a table instead of 3·T corners of a soup.
 */
export interface RawMesh {
  positions?: Float32Array;
  /** Set by a parser that measured the soup as it wrote it, so the geometry pass need not read it again. */
  measures?: Measures;
  colors?: Uint8Array;
  vertices?: Float32Array;
  corners?: Int32Array;
  declaredUnit: UnitName | null;
  warnings: string[];
  /** What breaks the format's specification, found while reading. */
  violations?: Violations;
  /**
   * Ranges of triangles, [first, end) pairs, that the parser drew closed itself: a beam lattice's struts.
   * They join shells, but their edges are not counted: where struts meet end to end, their rings can
   * coincide and would read as non-manifold edges of a mesh that has none.
   */
  closedParts?: number[];
  /** Where coordinate k (0–8) of triangle t sits in the file, for errors found by the geometry pass (binary STL: its byte offset). */
  locateTriangle?: (triangle: number, coordinate: number) => ModelErrorWhere;
}
