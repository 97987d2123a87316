import { grouped, lineAt, ModelParseError, type ModelErrorCode } from './errors.ts';
import { GrowableFloat32, GrowableInt32, GrowableUint8 } from './growable.ts';
import { keepShape } from './keep-shape.ts';
import { MEASURE_SLICE, MeasureSum } from './measure.ts';
import { cursor, excerpt, matchesWord, readNumber } from './numbers.ts';
import { soupOf } from './soup.ts';
import type { ParseOptions, RawMesh } from './types.ts';
import { DEFAULT_MAX_TRIANGLES } from './types.ts';

const NEWLINE = 10;

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

class ObjReader {
  readonly bytes: Uint8Array;
  readonly options: ParseOptions;
  readonly vertices: GrowableFloat32;
  readonly corners: GrowableInt32;
  colors: GrowableUint8 | null = null;
  vertexCount = 0;
  /** Positive indices may point ahead of the vertices read so far; checked once at the end. */
  largestIndex = -1;
  largestIndexAt = 0;
  shortFaces = 0;
  /** The measures of the triangles [0, measured), taken slice by slice as they are read. */
  readonly sum = new MeasureSum();
  measured = 0;
  readonly scratch = new Float64Array(7);
  i = 0;

  constructor(bytes: Uint8Array, options: ParseOptions) {
    this.bytes = bytes;
    this.options = options;
    // Room for vertex lines of 16 bytes and triangles of 4 bytes a corner, short for real files: the arrays
    // rarely have to grow, and pages never written are never mapped.
    const limit = options.maxTriangles ?? DEFAULT_MAX_TRIANGLES;
    this.vertices = new GrowableFloat32(Math.ceil(Math.min(bytes.length / 16, limit * 3)) * 3);
    this.corners = new GrowableInt32(Math.ceil(Math.min(bytes.length / 4, limit * 3)));
  }

  fail(code: ModelErrorCode, what: string, at = this.i): never {
    const line = lineAt(this.bytes, at);
    throw new ModelParseError(code, `${what} at line ${line}.`, { offset: at, line });
  }

  /** A face's vertex that does not exist, said from the line that names it. */
  failIndex(what: (line: number) => string, at: number): never {
    const line = lineAt(this.bytes, at);
    throw new ModelParseError('INDEX_OUT_OF_RANGE', what(line), { offset: at, line });
  }

  skipBlanks(): number {
    const bytes = this.bytes;
    let i = this.i;
    while (i < bytes.length && isBlank(bytes[i])) i++;
    this.i = i;
    return i < bytes.length ? bytes[i] : NEWLINE;
  }

  skipLine(): void {
    const bytes = this.bytes;
    let i = this.i;
    while (i < bytes.length && bytes[i] !== NEWLINE) i++;
    this.i = i + 1;
  }

  coordinate(): number {
    const start = this.i;
    const value = readNumber(this.bytes, start);
    if (value !== value) {
      const word = this.bytes[start] === 45 || this.bytes[start] === 43 ? start + 1 : start;
      if (matchesWord(this.bytes, word, 'nan') || matchesWord(this.bytes, word, 'inf')) this.fail('NAN_COORDINATE', `${excerpt(this.bytes, start, 12)} is not a finite coordinate`, start);
      this.fail('BAD_SYNTAX', `Expected a number but found ${excerpt(this.bytes, start)}`, start);
    }
    if (value - value !== 0) this.fail('NAN_COORDINATE', `${excerpt(this.bytes, start, 12)} is not a finite coordinate`, start);
    this.i = cursor.end;
    return value;
  }

  vertex(): void {
    const numbers = this.scratch;
    let n = 0;
    for (let c = this.skipBlanks(); c !== NEWLINE && c !== 35 && n < numbers.length; c = this.skipBlanks()) numbers[n++] = this.coordinate();
    if (n < 3) this.fail('BAD_SYNTAX', `A vertex needs three coordinates, found ${n}`);
    const vertices = this.vertices;
    vertices.reserve(3);
    vertices.data[vertices.length++] = numbers[0];
    vertices.data[vertices.length++] = numbers[1];
    vertices.data[vertices.length++] = numbers[2];
    // "v x y z r g b" is the common vertex-colour extension (MeshLab, ZBrush); "v x y z w" is a weight.
    if (n === 6 && !this.colors) {
      this.colors = new GrowableUint8(this.vertices.data.length * 4 / 3);
      this.colors.data.fill(255, 0, this.vertexCount * 4);
      this.colors.length = this.vertexCount * 4;
    }
    if (this.colors) {
      const colors = this.colors;
      colors.reserve(4);
      for (let k = 3; k < 6; k++) colors.data[colors.length++] = n === 6 ? Math.round(Math.min(1, Math.max(0, numbers[k])) * 255) : 255;
      colors.data[colors.length++] = 255;
    }
    this.vertexCount++;
    this.skipLine();
  }

  /** A corner's vertex index, checked and made 0-based; `start` is where its text begins. */
  resolve(index: number, start: number): number {
    if (index === 0) this.failIndex((line) => `Line ${line} uses vertex 0, but OBJ counts vertices from 1.`, start);
    const resolved = index > 0 ? index - 1 : this.vertexCount + index;
    if (resolved < 0) this.fail('INDEX_OUT_OF_RANGE', `Vertex index ${index} points before the first vertex (${this.vertexCount} read so far)`, start);
    if (resolved > this.largestIndex) {
      this.largestIndex = resolved;
      this.largestIndexAt = start;
    }
    return resolved;
  }

  /**
   * One `f` line. Corners are `v`, `v/vt`, `v//vn` or `v/vt/vn`; only `v` is kept. Polygons are fanned from
   * their first corner: exact for the convex faces exporters write. This is the hottest loop of the format
   * (most lines are faces), so it reads digits in place rather than through helpers.
   */
  face(): void {
    const bytes = this.bytes;
    const corners = this.corners;
    let i = this.i;
    let first = -1, previous = -1, count = 0;
    for (;;) {
      let c = bytes[i];
      while (c === 32 || c === 9 || c === 13) c = bytes[++i];
      if (i >= bytes.length || c === NEWLINE || c === 35) break;
      const start = i;
      const negative = c === 45;
      if (negative || c === 43) c = bytes[++i];
      let index = 0;
      const digitsFrom = i;
      while (c >= 48 && c <= 57) {
        index = index * 10 + (c - 48);
        c = bytes[++i];
      }
      if (i === digitsFrom) this.fail('BAD_SYNTAX', `Expected a vertex index but found ${excerpt(bytes, start)}`, start);
      // Texture and normal indices: skipped, but they must be numbers.
      for (let slashes = 0; c === 47 && slashes < 2; slashes++) {
        c = bytes[++i];
        if (c === 45 || c === 43) c = bytes[++i];
        while (c >= 48 && c <= 57) c = bytes[++i];
      }
      if (i < bytes.length && !isBlank(c) && c !== NEWLINE) this.fail('BAD_SYNTAX', `Malformed face corner ${excerpt(bytes, start)}`, start);
      const vertex = this.resolve(negative ? -index : index, start);
      if (++count === 1) first = vertex;
      else if (count >= 3) {
        if (corners.length + 3 > corners.data.length) corners.reserve(3);
        const data = corners.data;
        data[corners.length] = first;
        data[corners.length + 1] = previous;
        data[corners.length + 2] = vertex;
        corners.length += 3;
      }
      previous = vertex;
    }
    this.i = i;
    if (count < 3) this.shortFaces++;
    const limit = this.options.maxTriangles ?? DEFAULT_MAX_TRIANGLES;
    if (corners.length > limit * 3) this.fail('TOO_LARGE', `More than ${limit} triangles`);
    this.skipLine();
  }

  read(): RawMesh {
    const bytes = this.bytes;
    let nextProgress = 1 << 22;
    let nextMeasure = MEASURE_SLICE * 3;
    while (this.i < bytes.length) {
      const c = this.skipBlanks();
      const next = bytes[this.i + 1];
      if (c === 118 && isBlank(next)) {
        this.i++;
        this.vertex();
      } else if (c === 102 && isBlank(next)) {
        this.i++;
        this.face();
        if (this.corners.length >= nextMeasure) {
          this.measureSoFar();
          nextMeasure = this.corners.length + MEASURE_SLICE * 3;
        }
      } else this.skipLine();
      if (this.i > nextProgress) {
        this.options.onProgress?.(this.i / bytes.length);
        nextProgress = this.i + (1 << 22);
      }
    }
    if (this.largestIndex >= this.vertexCount) {
      const [wanted, count] = [this.largestIndex + 1, this.vertexCount];
      this.failIndex((line) => `Line ${line} uses vertex ${grouped(wanted)}, but the file has only ${grouped(count)} ${count === 1 ? 'vertex' : 'vertices'}.`, this.largestIndexAt);
    }
    return this.expand();
  }

  /**
   * Measures the triangles read since the last slice while their corners and vertices are still in cache
   * (a pass over the whole table afterwards read them all from memory again: a fifth of a large file's
   * parse). Not while a face names a vertex further on, which OBJ allows: those wait for the next slice.
   */
  measureSoFar(): void {
    if (this.largestIndex >= this.vertexCount) return;
    const triangles = Math.floor(this.corners.length / 3);
    this.sum.addIndexed(this.vertices.data, this.corners.data, this.measured, triangles);
    this.measured = triangles;
  }

  /**
   * The vertex table and corners as read, measured from the table. Vertex colours are per corner in the
   * viewer, so a coloured file also gets a soup.
   */
  expand(): RawMesh {
    const vertices = this.vertices.used();
    const corners = this.corners.used();
    const warnings: string[] = [];
    if (this.shortFaces > 0) warnings.push(`${this.shortFaces} faces with fewer than three corners were skipped.`);
    this.sum.addIndexed(vertices, corners, this.measured, Math.floor(corners.length / 3));
    const mesh: RawMesh = { vertices, corners, measures: this.sum.result(), declaredUnit: null, warnings };
    if (!this.colors) return mesh;
    const source = this.colors.data;
    const colors = new Uint8Array(corners.length * 4);
    for (let c = 0; c < corners.length; c++) for (let k = 0; k < 4; k++) colors[c * 4 + k] = source[corners[c] * 4 + k];
    return { ...mesh, positions: soupOf(vertices, corners), colors };
  }
}

// A 1M-triangle OBJ read after a full collection took 145–155 ms without this, 120–130 with it.
keepShape(new ObjReader(new Uint8Array(0), {}));

/** `v` and `f` are read; everything else (vt, vn, usemtl, g, o, s, l, comments) is skipped by line. */
export function parseObj(bytes: Uint8Array, options: ParseOptions): RawMesh {
  return new ObjReader(bytes, options).read();
}
