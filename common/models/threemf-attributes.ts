// Attribute values of the element a 3MF part's scanner stands on, read as numbers, indices and transforms,
// with an error that says which attribute of which element, where, when one is not what it must be.
import { cursor, readInt, readNumber } from './numbers.ts';
import type { XmlScanner } from './xml.ts';

/** Row-vector affine 3×4 as in the spec: m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32. */
export type Transform = Float64Array;

export class AttributeReader {
  readonly xml: XmlScanner;

  constructor(xml: XmlScanner) {
    this.xml = xml;
  }

  int(name: string, fallback: number): number {
    const n = this.xml.find(name);
    if (n < 0) return fallback;
    const value = readInt(this.xml.bytes, this.xml.valueStart(n));
    if (value !== value || cursor.end !== this.xml.valueEnd(n)) this.xml.fail('BAD_XML', `${name}="…" is not an integer`, this.xml.valueStart(n));
    return value;
  }

  float(name: string): number {
    const xml = this.xml;
    const n = xml.find(name);
    if (n < 0) xml.fail('BAD_XML', `A <${this.tagName()}> without ${name}`);
    const start = xml.valueStart(n);
    const value = readNumber(xml.bytes, start);
    if (value !== value) {
      const text = xml.string(name)?.trim().toLowerCase() ?? '';
      xml.fail(/^[+-]?(nan|inf)/.test(text) ? 'NAN_COORDINATE' : 'BAD_XML', `${name}="${text}" is not a number`, start);
    }
    if (value - value !== 0) xml.fail('NAN_COORDINATE', `${name}="${xml.string(name)}" is not a finite number`, start);
    if (cursor.end !== xml.valueEnd(n)) xml.fail('BAD_XML', `${name}="${xml.string(name)}" is not a number`, start);
    return value;
  }

  index(name: string, count: number): number {
    const v = this.int(name, -1);
    if (v < 0 || v >= count) this.xml.fail('INDEX_OUT_OF_RANGE', `${name}="${v}" but the mesh has ${count} vertices`);
    return v;
  }

  tagName(): string {
    return new TextDecoder().decode(this.xml.bytes.subarray(this.xml.localStart, this.xml.nameEnd));
  }

  transform(): Transform | null {
    const text = this.xml.string('transform');
    if (text === null) return null;
    const values = text.trim().split(/\s+/).map(Number);
    if (values.length !== 12 || values.some((v) => !Number.isFinite(v))) this.xml.fail('BAD_XML', `transform="${text}" is not 12 finite numbers`);
    return Float64Array.from(values);
  }
}
