import { lineAt, ModelParseError } from './errors.ts';
import { MEASURE_SLICE, MeasureSum } from './measure.ts';
import { keepShape } from './keep-shape.ts';
import { cursor, excerpt, isSpace, matchesWord, readNumber } from './numbers.ts';
import type { ParseOptions, RawMesh } from './types.ts';
import { DEFAULT_MAX_TRIANGLES } from './types.ts';

/** Typical exporters write 200–260 bytes per facet; the guess only sets the first allocation. */
const BYTES_PER_FACET_GUESS = 220;
const CORNERS = ['for corner 1', 'for corner 2', 'for corner 3'];

/**
 * A keyword of 4 to 8 lower-case letters as two little-endian words, so that the text is compared 4 bytes
 * at a time: a byte ORed with 0x20 equals a lower-case letter only if it is that letter in either case.
 * The 8 keywords of every facet were a fifth of the parse, byte by byte.
 */
interface Keyword {
  text: string;
  low: number;
  high: number;
  highMask: number;
}

function keyword(text: string): Keyword {
  if (!/^[a-z]{4,8}$/.test(text)) throw new Error(`A keyword compared by words is 4 to 8 lower-case letters, not "${text}"`);
  const byte = (k: number) => (k < text.length ? text.charCodeAt(k) : 0);
  const word = (k: number) => byte(k) | (byte(k + 1) << 8) | (byte(k + 2) << 16) | (byte(k + 3) << 24);
  const highBytes = text.length - 4;
  return { text, low: word(0), high: word(4), highMask: highBytes === 4 ? -1 : (1 << (highBytes * 8)) - 1 };
}

const NORMAL = keyword('normal'), OUTER = keyword('outer'), LOOP = keyword('loop'), VERTEX = keyword('vertex');
const ENDLOOP = keyword('endloop'), ENDFACET = keyword('endfacet');

/** Whether the keyword `word` is at `i` and ends there (a space or the end follows); `i + 8` must be in bounds. */
function keywordAt(bytes: Uint8Array, view: DataView, i: number, word: Keyword): boolean {
  const after = bytes[i + word.text.length];
  return (view.getUint32(i, true) | 0x20202020) === word.low
    && ((view.getUint32(i + 4, true) | 0x20202020) & word.highMask) === word.high
    && (after === undefined || isSpace(after));
}

/** The first byte at or after `i` that is not white space. */
function skipSpaces(bytes: Uint8Array, i: number): number {
  let c = bytes[i];
  while (isSpace(c)) c = bytes[++i];
  return i;
}

/** The room a facet's keywords need past their start to be compared by words (getUint32 at i + 4). */
const KEYWORD_ROOM = 8;

/**
 * One facet after "facet", in the shape nearly every exporter writes, read in one straight pass with the
 * position in a local: a fifth of the parse went to keeping it in the reader between small methods.
 * Writes the 9 coordinates at `out[at]` and returns where the facet ends, or -1 at anything unusual
 * (then the careful reader reads it again and names what is wrong). `out` has room for the 9.
 */
function plainFacet(bytes: Uint8Array, view: DataView, i: number, out: Float32Array, at: number): number {
  const last = bytes.length - KEYWORD_ROOM;
  i = skipSpaces(bytes, i);
  if (i > last || !keywordAt(bytes, view, i, NORMAL)) return -1;
  i += 6;
  for (let k = 0; k < 3; k++) {
    const start = (i = skipSpaces(bytes, i));
    let c = bytes[i];
    while (c !== undefined && !isSpace(c)) c = bytes[++i];
    if (i === start) return -1;
  }
  i = skipSpaces(bytes, i);
  if (i > last || !keywordAt(bytes, view, i, OUTER)) return -1;
  i = skipSpaces(bytes, i + 5);
  if (i > last || !keywordAt(bytes, view, i, LOOP)) return -1;
  i += 4;
  for (let v = 0; v < 3; v++) {
    i = skipSpaces(bytes, i);
    if (i > last || !keywordAt(bytes, view, i, VERTEX)) return -1;
    i += 6;
    for (let k = 0; k < 3; k++) {
      i = skipSpaces(bytes, i);
      const value = readNumber(bytes, i);
      i = cursor.end;
      const c = bytes[i];
      if (value - value !== 0 || !(c === undefined || isSpace(c))) return -1;
      out[at++] = value;
    }
  }
  i = skipSpaces(bytes, i);
  if (i > last || !keywordAt(bytes, view, i, ENDLOOP)) return -1;
  i = skipSpaces(bytes, i + 7);
  if (i > last || !keywordAt(bytes, view, i, ENDFACET)) return -1;
  return i + 8;
}

class AsciiStlReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly options: ParseOptions;
  positions: Float32Array;
  floats = 0;
  i = 0;
  /** Measured a slice at a time as facets are read, while their positions are in cache. */
  readonly sum = new MeasureSum();
  measured = 0;

  constructor(bytes: Uint8Array, options: ParseOptions) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.options = options;
    this.positions = new Float32Array(Math.max(9, Math.ceil(bytes.length / BYTES_PER_FACET_GUESS) * 9));
  }

  fail(code: 'BAD_SYNTAX' | 'TRUNCATED' | 'NAN_COORDINATE' | 'TOO_LARGE', what: string, at = this.i): never {
    const line = lineAt(this.bytes, at);
    throw new ModelParseError(code, `${what} at line ${line} (byte ${at}).`, { offset: at, line });
  }

  skipSpace(): number {
    const bytes = this.bytes;
    let i = this.i;
    while (i < bytes.length && isSpace(bytes[i])) i++;
    this.i = i;
    return i < bytes.length ? bytes[i] : -1;
  }

  skipLine(): void {
    const bytes = this.bytes;
    let i = this.i;
    while (i < bytes.length && bytes[i] !== 10) i++;
    this.i = i;
  }

  /** Consumes `word` if it is the next token (case-insensitive), else fails saying what was expected. */
  expect(word: Keyword, context: string, facetStart = -1): void {
    const c = this.skipSpace();
    if (c === -1) this.fail('TRUNCATED', `The file ends ${context}${this.facetAt(facetStart)}, where "${word.text}" was expected`);
    const { bytes, view, i } = this;
    const end = i + word.text.length;
    const matches = i + KEYWORD_ROOM <= bytes.length
      ? keywordAt(bytes, view, i, word)
      : matchesWord(bytes, i, word.text) && (end === bytes.length || isSpace(bytes[end]));
    if (!matches) {
      this.fail('BAD_SYNTAX', `Expected "${word.text}" ${context}${this.facetAt(facetStart)} but found ${excerpt(bytes, i)}`);
    }
    this.i = end;
  }

  facetAt(facetStart: number): string {
    return facetStart >= 0 ? ` of the facet that starts on line ${lineAt(this.bytes, facetStart)}` : '';
  }

  /**
   * Steps over one word without reading it as a number: the facet normal is recomputed from the corners,
   * so its three numbers are only checked for being there (a quarter of the numbers in a file).
   */
  skipWord(context: string): void {
    if (this.skipSpace() === -1) this.fail('TRUNCATED', `The file ends ${context}`);
    const bytes = this.bytes;
    let i = this.i;
    while (i < bytes.length && !isSpace(bytes[i])) i++;
    this.i = i;
  }

  number(context: string): number {
    if (this.skipSpace() === -1) this.fail('TRUNCATED', `The file ends ${context}`);
    const start = this.i;
    const value = readNumber(this.bytes, start);
    const end = cursor.end;
    if (value !== value) {
      const word = this.bytes[start] === 45 || this.bytes[start] === 43 ? start + 1 : start;
      if (matchesWord(this.bytes, word, 'nan') || matchesWord(this.bytes, word, 'inf')) this.fail('NAN_COORDINATE', `${excerpt(this.bytes, start, 12)} is not a finite coordinate`, start);
      this.fail('BAD_SYNTAX', `Expected a number ${context} but found ${excerpt(this.bytes, start)}`, start);
    }
    if (end < this.bytes.length && !isSpace(this.bytes[end])) this.fail('BAD_SYNTAX', `Malformed number ${excerpt(this.bytes, start)} ${context}`, start);
    if (value - value !== 0) this.fail('NAN_COORDINATE', `${excerpt(this.bytes, start, 12)} is not a finite coordinate`, start);
    this.i = end;
    return value;
  }

  push(value: number): void {
    if (this.floats === this.positions.length) {
      const limit = (this.options.maxTriangles ?? DEFAULT_MAX_TRIANGLES) * 9;
      if (this.floats >= limit) this.fail('TOO_LARGE', `More than ${limit / 9} triangles`);
      const bigger = new Float32Array(Math.min(limit, this.positions.length * 2));
      bigger.set(this.positions);
      this.positions = bigger;
    }
    this.positions[this.floats++] = value;
  }

  measureUpTo(triangles: number): void {
    this.sum.add(this.positions, this.measured, triangles);
    this.measured = triangles;
  }

  facet(): void {
    const start = this.i;
    this.expect(NORMAL, 'after "facet"');
    for (let k = 0; k < 3; k++) this.skipWord('in the facet normal');
    this.expect(OUTER, 'after the facet normal');
    this.expect(LOOP, 'after "outer"');
    for (let v = 0; v < 3; v++) {
      this.expect(VERTEX, CORNERS[v], start);
      for (let k = 0; k < 3; k++) this.push(this.number('in a vertex'));
    }
    this.expect(ENDLOOP, 'after three vertices (only triangles are allowed)');
    this.expect(ENDFACET, 'after "endloop"');
  }

  read(): RawMesh {
    const bytes = this.bytes;
    const warnings: string[] = [];
    let solids = 0;
    let open = false;
    let nextProgress = 1 << 22;
    for (;;) {
      const c = this.skipSpace();
      if (c === -1) break;
      const at = this.i;
      if ((c | 32) === 102 && matchesWord(bytes, at, 'facet')) {
        if (!open) this.fail('BAD_SYNTAX', 'A facet outside "solid … endsolid"');
        const end = this.floats + 9 <= this.positions.length ? plainFacet(bytes, this.view, at + 5, this.positions, this.floats) : -1;
        if (end >= 0) {
          this.i = end;
          this.floats += 9;
        } else {
          this.i = at + 5;
          this.facet();
        }
        if (this.floats - this.measured * 9 === MEASURE_SLICE * 9) this.measureUpTo(this.floats / 9);
        if (this.i > nextProgress) {
          this.options.onProgress?.(this.i / bytes.length);
          nextProgress = this.i + (1 << 22);
        }
      } else if ((c | 32) === 101 && matchesWord(bytes, at, 'endsolid')) {
        open = false;
        this.skipLine();
      } else if ((c | 32) === 115 && matchesWord(bytes, at, 'solid')) {
        if (open) warnings.push(`A "solid" at line ${lineAt(bytes, at)} starts before the previous one ended.`);
        open = true;
        solids++;
        this.skipLine();
      } else this.fail('BAD_SYNTAX', `Unexpected ${excerpt(bytes, at)}`);
    }
    const limit = this.options.maxTriangles ?? DEFAULT_MAX_TRIANGLES;
    if (this.floats > limit * 9) throw new ModelParseError('TOO_LARGE', `${this.floats / 9} triangles is more than the ${limit} this app handles.`);
    if (solids === 0) throw new ModelParseError('NOT_A_MODEL', 'No "solid" in the file: it is not an ASCII STL.');
    if (open) warnings.push('The file ends without "endsolid": it may be truncated.');
    if (solids > 1) warnings.push(`${solids} solids in one file were merged.`);
    this.measureUpTo(this.floats / 9);
    // A little slack stays (never written, so never mapped): copying a large array to trim it costs more.
    const slack = this.positions.length - this.floats;
    const positions = slack * 4 <= this.floats ? this.positions.subarray(0, this.floats) : this.positions.slice(0, this.floats);
    return { positions, measures: this.sum.result(), declaredUnit: null, warnings };
  }
}

// A 1M-triangle file read after a full collection: 590–600 ms without this, 565–590 with it.
keepShape(new AsciiStlReader(new Uint8Array(0), {}));

/** A byte-level reader: no strings per line, numbers folded straight from the digits. */
export function parseAsciiStl(bytes: Uint8Array, options: ParseOptions): RawMesh {
  return new AsciiStlReader(bytes, options).read();
}
