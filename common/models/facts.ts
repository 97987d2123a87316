import { grouped, ModelParseError } from './errors.ts';
import { measure, measureIndexed, type Measures } from './measure.ts';
import { analyse, type Topology } from './topology.ts';
import type { ArraysFree, ModelFacts, ParseOptions, RawMesh, Vec3 } from './types.ts';
import { conformanceOf } from './spec-rules.ts';
import { guessUnit } from './units.ts';
import { weld, weldTable } from './weld.ts';

type PointOf = (id: number, out: Float32Array, at: number) => void;

/** Ids per triangle corner, welded by position: from the vertex table when the format has one. */
function cornerIdsOf(mesh: RawMesh, measures: Measures): { cornerIds: Int32Array; unique: number; pointOf: PointOf } {
  const { vertices, corners } = mesh;
  if (vertices === undefined || corners === undefined) {
    // In a soup, shared corners make unique points about a sixth of the corners of a closed mesh (the weld
    // grows its table for the rest); the measured box holds every corner.
    const soup = mesh.positions!;
    const { ids, points, unique } = weld(soup, soup.length / 18, measures);
    return { cornerIds: ids, unique, pointOf: pointsOf(points, null) };
  }
  const welded = weldTable(vertices, measures);
  // Every vertex its own point (the usual table): the corners already are the ids.
  if (!welded) return { cornerIds: corners, unique: vertices.length / 3, pointOf: pointsOf(vertices, null) };
  const { ids, firstPoint, unique } = welded;
  const cornerIds = new Int32Array(corners.length);
  for (let i = 0; i < corners.length; i++) cornerIds[i] = ids[corners[i]];
  return { cornerIds, unique, pointOf: pointsOf(vertices, firstPoint) };
}

/** The place of a welded id: its first point's, or the point of the same index when nothing was welded. */
function pointsOf(source: Float32Array, firstPoint: Int32Array | null): PointOf {
  return (id, out, at) => {
    const p = (firstPoint ? firstPoint[id] : id) * 3;
    out[at] = source[p];
    out[at + 1] = source[p + 1];
    out[at + 2] = source[p + 2];
  };
}

const AXES = ['x', 'y', 'z'];

/** Names the coordinate, and where it is when the format can say (binary STL: the float's own byte offset). */
function nonFiniteError(mesh: RawMesh, triangle: number): ModelParseError {
  const soup = mesh.positions?.subarray(triangle * 9, triangle * 9 + 9);
  const k = soup ? soup.findIndex((value) => !Number.isFinite(value)) : -1;
  const which = k >= 0 ? `, corner ${Math.floor(k / 3) + 1}, ${AXES[k % 3]}` : '';
  const where = mesh.locateTriangle?.(triangle, Math.max(0, k)) ?? {};
  const at = where.offset !== undefined ? ` (byte offset ${where.offset})` : '';
  return new ModelParseError('NAN_COORDINATE', `Triangle ${triangle + 1}${which}${at} has a coordinate that is not a finite number (NaN or Infinity).`, where);
}

const NO_TOPOLOGY: Topology = { openEdges: 0, nonManifoldEdges: 0, inconsistentEdges: 0, shells: 0 };


function topologyWarnings(topology: Topology, signedVolume: number, watertight: boolean): string[] {
  const warnings: string[] = [];
  if (topology.openEdges > 0) warnings.push(`The mesh is not closed: ${topology.openEdges === 1 ? '1 open edge' : `${grouped(topology.openEdges)} open edges`}. Volume is unreliable and a printer may reject it: close the holes in your modelling or mesh-repair tool before ordering.`);
  if (topology.nonManifoldEdges > 0) warnings.push(`${topology.nonManifoldEdges === 1 ? '1 edge is' : `${grouped(topology.nonManifoldEdges)} edges are`} shared by more than two triangles (non-manifold).`);
  if (topology.inconsistentEdges > 0) warnings.push(`${topology.inconsistentEdges === 1 ? '1 edge joins' : `${grouped(topology.inconsistentEdges)} edges join`} triangles facing opposite ways (flipped normals).`);
  if (watertight && signedVolume < 0) warnings.push('The mesh is inside out: its triangles face inwards. Flip its normals before ordering.');
  return warnings;
}

/** Facts from the measures, and from the topology once it is known. */
function factsFrom(mesh: RawMesh, triangles: number, measures: Measures, topology: Topology | null, state: ModelFacts['topology']): ModelFacts {
  const known = topology ?? NO_TOPOLOGY;
  const size: Vec3 = [measures.max[0] - measures.min[0], measures.max[1] - measures.min[1], measures.max[2] - measures.min[2]];
  const watertight = topology !== null && triangles > 0 && known.openEdges === 0 && known.nonManifoldEdges === 0;
  const warnings = [...mesh.warnings];
  if (state === 'skipped') warnings.push('Topology was not checked: watertightness and shells are unknown.');
  if (topology) warnings.push(...topologyWarnings(topology, measures.signedVolume, watertight));
  if (measures.degenerate > 0) warnings.push(`${measures.degenerate === 1 ? '1 triangle has' : `${grouped(measures.degenerate)} triangles have`} no area (degenerate).`);
  const unit = guessUnit(size, mesh.declaredUnit);
  if (unit.warning) warnings.push(unit.warning);
  return {
    triangles,
    bounds: { min: measures.min, max: measures.max },
    size,
    volume: Math.abs(measures.signedVolume),
    area: measures.area,
    topology: state,
    openEdges: known.openEdges,
    nonManifoldEdges: known.nonManifoldEdges,
    inconsistentEdges: known.inconsistentEdges,
    degenerateTriangles: measures.degenerate,
    shells: known.shells,
    watertight,
    unit: { declared: mesh.declaredUnit, assumed: mesh.declaredUnit ?? 'millimeter', ...(unit.guess ? { guess: unit.guess } : {}) },
    warnings,
    conformance: conformanceOf(mesh.violations),
  };
}

/** A coordinate that is not a number, or nothing with any area: no facts can be given. */
export function checkMeasured(mesh: RawMesh, triangles: number, measures: Measures): void {
  if (measures.firstNonFinite >= 0) throw nonFiniteError(mesh, measures.firstNonFinite);
  if (triangles > 0 && measures.degenerate === triangles) {
    // Zero size, zero volume, and "closed" by the edge count alone: nothing here can be printed.
    throw new ModelParseError('EMPTY', `None of its ${triangles} triangles has any area (their corners coincide or lie on a line): there is nothing to print.`);
  }
}

/**
 * The facts of a mesh whose corners are welded already (a file read in parts): edges and shells counted,
 * in the memory of `spare` arrays where they are large enough.
 */
export function factsOfWelded(mesh: RawMesh, triangles: number, measures: Measures, cornerIds: Int32Array, unique: number, spare: Int32Array[] = []): ModelFacts {
  const topology = analyse(cornerIds, unique, { closedParts: mesh.closedParts, spare });
  return factsFrom(mesh, triangles, measures, topology, 'checked');
}

/** Triangles of a mesh in either shape. */
export function triangleCount(mesh: RawMesh): number {
  return mesh.positions ? mesh.positions.length / 9 : Math.floor((mesh.corners?.length ?? 0) / 3);
}

function measuresOf(mesh: RawMesh): Measures {
  if (mesh.measures) return mesh.measures;
  return mesh.positions ? measure(mesh.positions) : measureIndexed(mesh.vertices!, mesh.corners!);
}

/**
 * The geometry pass shared by every format: measures, then topology, then the unit sanity check.
 * `onMeasured` hears the facts the measures alone give (size, volume, area) before the topology, which
 * costs several times more, so a preview can show the model meanwhile; and when the pass will be done
 * reading the model's arrays (see ParseOptions.onMeasured).
 */
export function computeFacts(mesh: RawMesh, options: ParseOptions, onMeasured?: (facts: ModelFacts, arraysFree: ArraysFree) => void): { facts: ModelFacts; boundaryEdges?: Float32Array } {
  const triangles = triangleCount(mesh);
  const measures = measuresOf(mesh);
  checkMeasured(mesh, triangles, measures);
  if (options.skipTopology) return { facts: factsFrom(mesh, triangles, measures, null, 'skipped') };
  // The topology pass reads a soup until it is welded, or else the vertex table and corners: the model's
  // own arrays unless it carries a soup beside them (for colours), which is then free to be handed away.
  const arraysFree: ArraysFree = mesh.vertices && mesh.corners ? (mesh.positions ? 'now' : 'at the end') : 'after weld';
  onMeasured?.(factsFrom(mesh, triangles, measures, null, 'pending'), arraysFree);
  if (triangles === 0) return { facts: factsFrom(mesh, triangles, measures, NO_TOPOLOGY, 'checked') };
  const { cornerIds, unique, pointOf } = cornerIdsOf(mesh, measures);
  if (arraysFree === 'after weld') options.onWelded?.();
  const topology = analyse(cornerIds, unique, { boundary: options.boundaryEdges === true ? { pointOf } : undefined, closedParts: mesh.closedParts });
  return { facts: factsFrom(mesh, triangles, measures, topology, 'checked'), boundaryEdges: topology.boundary };
}
