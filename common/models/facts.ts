import { ModelParseError } from './errors.ts';
import { measure } from './measure.ts';
import { analyse, weld, type Topology } from './topology.ts';
import type { ModelFacts, ParseOptions, RawMesh, Vec3 } from './types.ts';
import { guessUnit } from './units.ts';

/** Ids per triangle corner, welded by position: from the vertex table when the format has one. */
function cornerIdsOf(mesh: RawMesh): { cornerIds: Int32Array; unique: number; pointOf: (id: number, out: Float32Array, at: number) => void } {
  const indexed = mesh.vertices && mesh.corners;
  const source = indexed ? mesh.vertices! : mesh.positions;
  // A vertex table is mostly unique already; in a soup, shared corners make unique points about a sixth
  // of the corners of a closed mesh (a quarter leaves room before the table has to grow).
  const { ids, firstPoint, unique } = weld(source, indexed ? source.length / 3 : source.length / 12);
  const pointOf = (id: number, out: Float32Array, at: number) => {
    const p = firstPoint[id] * 3;
    out[at] = source[p];
    out[at + 1] = source[p + 1];
    out[at + 2] = source[p + 2];
  };
  if (!indexed) return { cornerIds: ids, unique, pointOf };
  const corners = mesh.corners!;
  const cornerIds = new Int32Array(corners.length);
  for (let i = 0; i < corners.length; i++) cornerIds[i] = ids[corners[i]];
  return { cornerIds, unique, pointOf };
}

function nonFiniteError(mesh: RawMesh, triangle: number): ModelParseError {
  const where = mesh.locateTriangle?.(triangle) ?? {};
  const at = where.offset !== undefined ? ` (byte offset ${where.offset})` : '';
  return new ModelParseError('NAN_COORDINATE', `Triangle ${triangle + 1}${at} has a coordinate that is not a finite number (NaN or Infinity).`, where);
}

/** The geometry pass shared by every format: measures, then topology, then the unit sanity check. */
export function computeFacts(mesh: RawMesh, options: ParseOptions): { facts: ModelFacts; boundaryEdges?: Float32Array } {
  const triangles = mesh.positions.length / 9;
  const measures = measure(mesh.positions);
  if (measures.firstNonFinite >= 0) throw nonFiniteError(mesh, measures.firstNonFinite);
  const warnings = [...mesh.warnings];
  let topology: Topology = { openEdges: 0, nonManifoldEdges: 0, inconsistentEdges: 0, shells: 0 };
  if (options.skipTopology) warnings.push('Topology was not checked: watertightness and shells are unknown.');
  else if (triangles > 0) {
    const { cornerIds, unique, pointOf } = cornerIdsOf(mesh);
    topology = analyse(cornerIds, unique, pointOf, options.boundaryEdges === true);
  }
  const size: Vec3 = [measures.max[0] - measures.min[0], measures.max[1] - measures.min[1], measures.max[2] - measures.min[2]];
  const watertight = !options.skipTopology && triangles > 0 && topology.openEdges === 0 && topology.nonManifoldEdges === 0;
  if (topology.openEdges > 0) warnings.push(`The mesh is not closed: ${topology.openEdges} open edges. Volume is unreliable and a printer may reject it.`);
  if (topology.nonManifoldEdges > 0) warnings.push(`${topology.nonManifoldEdges} edges are shared by more than two triangles (non-manifold).`);
  if (topology.inconsistentEdges > 0) warnings.push(`${topology.inconsistentEdges} edges join triangles facing opposite ways (flipped normals).`);
  if (measures.degenerate > 0) warnings.push(`${measures.degenerate} triangles have no area (degenerate).`);
  if (watertight && measures.signedVolume < 0) warnings.push('The mesh is inside out: its triangles face inwards.');
  const unit = guessUnit(size, mesh.declaredUnit);
  if (unit.warning) warnings.push(unit.warning);
  const facts: ModelFacts = {
    triangles,
    bounds: { min: measures.min, max: measures.max },
    size,
    volume: Math.abs(measures.signedVolume),
    area: measures.area,
    openEdges: topology.openEdges,
    nonManifoldEdges: topology.nonManifoldEdges,
    inconsistentEdges: topology.inconsistentEdges,
    degenerateTriangles: measures.degenerate,
    shells: topology.shells,
    watertight,
    unit: { declared: mesh.declaredUnit, assumed: mesh.declaredUnit ?? 'millimeter', ...(unit.guess ? { guess: unit.guess } : {}) },
    warnings,
  };
  return { facts, boundaryEdges: topology.boundary };
}
