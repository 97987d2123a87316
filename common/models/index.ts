// The shared model module: pure (typed arrays and TextDecoder only), used by the renderer's worker and the CLI.
import { detectFormat, extensionMismatch } from './detect.ts';
import { ModelParseError } from './errors.ts';
import { computeFacts, triangleCount } from './facts.ts';
import { parseObj } from './obj.ts';
import { parseAsciiStl } from './stl-ascii.ts';
import { parseBinaryStl } from './stl-binary.ts';
import { parse3mf } from './threemf.ts';
import type { ModelFacts, ModelFormat, ParseOptions, ParsedModel, RawMesh } from './types.ts';

export { describeFormat, detectFormat, extensionMismatch } from './detect.ts';
export { binaryStlFactsInParts, type ReadInto } from './stl-binary-parts.ts';
export { isModelParseError, ModelParseError, type ModelErrorCode, type ModelErrorWhere } from './errors.ts';
export type { ArraysFree, ModelArrays, ModelFacts, ModelFormat, ParseOptions, ParsedModel, Vec3 } from './types.ts';
export { DEFAULT_MAX_TRIANGLES, DEFAULT_MAX_UNZIPPED_BYTES } from './types.ts';
export { pictureOf, PREVIEW_PROXY_TRIANGLES, simplify, type ProxyMesh } from './proxy.ts';
export type { UnitName } from './units.ts';
export { describeViolations, SPEC_RULES, type Conformance, type SpecRuleId, type SpecViolation, type SpecWhere } from './spec-rules.ts';

const PARSERS: Record<ModelFormat, (bytes: Uint8Array, options: ParseOptions) => RawMesh> = {
  'stl-binary': parseBinaryStl,
  'stl-ascii': parseAsciiStl,
  obj: parseObj,
  '3mf': parse3mf,
};

/** The soup, or the vertex table with its corners as unsigned indices (a view: they are never negative). */
function shapeOf(mesh: RawMesh): Pick<ParsedModel, 'positions' | 'indices'> {
  if (mesh.positions) return { positions: mesh.positions };
  const corners = mesh.corners!;
  return { positions: mesh.vertices!, indices: new Uint32Array(corners.buffer, corners.byteOffset, corners.length) };
}

/**
 * Reads a model file: picks the parser by content (then extension), parses, and runs the geometry pass.
 * Throws ModelParseError for every problem with the file; anything else thrown is a bug.
 */
export function parseModel(bytes: Uint8Array, fileName: string, options: ParseOptions = {}): ParsedModel {
  const format = detectFormat(bytes, fileName);
  const mesh = PARSERS[format](bytes, options);
  const mismatch = extensionMismatch(format, fileName);
  if (mismatch) mesh.warnings.unshift(mismatch);
  if (triangleCount(mesh) === 0) throw new ModelParseError('EMPTY', `${fileName} contains no triangles.`);
  const modelWith = (facts: ModelFacts): ParsedModel => ({ format, ...shapeOf(mesh), ...(mesh.colors ? { colors: mesh.colors } : {}), facts });
  const onMeasured = options.onMeasured;
  const { facts, boundaryEdges } = computeFacts(mesh, options, onMeasured && ((early, arraysFree) => onMeasured(modelWith(early), arraysFree)));
  options.onProgress?.(1);
  const model = modelWith(facts);
  if (boundaryEdges) model.boundaryEdges = boundaryEdges;
  return model;
}
