// A pull scanner over UTF-8 bytes for the 3MF subset of XML: elements, attributes, comments, processing
// instructions, CDATA. No DTD support at all: a DOCTYPE or ENTITY declaration is refused, so entity expansion
// (billion laughs, external entities) cannot happen. Names and values are byte ranges; nothing is decoded
// unless a caller asks for a string.
import { columnAt, lineAt, ModelParseError, type ModelErrorCode } from './errors.ts';

export const EOF = 0;
export const START = 1;
export const END = 2;

const utf8 = new TextDecoder();

function isNameEnd(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62;
}

export class XmlScanner {
  readonly bytes: Uint8Array;
  readonly part: string;
  i = 0;
  /** Of the element just read: its name as written, and its local name (after any prefix), as byte ranges. */
  nameStart = 0;
  localStart = 0;
  nameEnd = 0;
  selfClosing = false;
  attributeCount = 0;
  /** Per attribute: local name start/end, value start/end. */
  attributes = new Int32Array(4 * 32);

  constructor(bytes: Uint8Array, part: string) {
    this.bytes = bytes;
    this.part = part;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) this.i = 3;
    else if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
      throw new ModelParseError('UNSUPPORTED', `${part} is UTF-16; 3MF model parts must be UTF-8.`, { part });
    }
  }

  fail(code: ModelErrorCode, what: string, at = this.i): never {
    const line = lineAt(this.bytes, at);
    const column = columnAt(this.bytes, at);
    throw new ModelParseError(code, `${what} in ${this.part} at line ${line}, column ${column.toLocaleString('en-US')}.`, { offset: at, line, column, part: this.part });
  }

  private skipPast(terminator: string, what: string): void {
    const bytes = this.bytes;
    const first = terminator.charCodeAt(0);
    for (let i = this.i; i < bytes.length; i++) {
      if (bytes[i] !== first) continue;
      let k = 1;
      while (k < terminator.length && bytes[i + k] === terminator.charCodeAt(k)) k++;
      if (k === terminator.length) {
        this.i = i + k;
        return;
      }
    }
    this.fail('TRUNCATED', `An unterminated ${what}`);
  }

  /** Advances to the next start or end tag; returns START, END or EOF. */
  next(): number {
    const bytes = this.bytes;
    for (;;) {
      let i = this.i;
      while (i < bytes.length && bytes[i] !== 60) i++;
      this.i = i;
      if (i >= bytes.length) return EOF;
      const c = bytes[i + 1];
      if (c === 63) this.skipPast('?>', 'processing instruction');
      else if (c === 33) this.declaration();
      else if (c === 47) {
        this.name(i + 2);
        while (this.i < bytes.length && bytes[this.i] !== 62) this.i++;
        if (this.i >= bytes.length) this.fail('TRUNCATED', 'The part ends inside an end tag');
        this.i++;
        return END;
      } else {
        this.name(i + 1);
        this.readAttributes();
        return START;
      }
    }
  }

  private declaration(): void {
    const bytes = this.bytes;
    const at = this.i;
    if (bytes[at + 2] === 45 && bytes[at + 3] === 45) return this.skipPast('-->', 'comment');
    if (bytes[at + 2] === 91) return this.skipPast(']]>', 'CDATA section');
    this.fail('XML_ENTITY', 'A DOCTYPE or ENTITY declaration (refused: entity expansion is a known attack)', at);
  }

  private name(from: number): void {
    const bytes = this.bytes;
    let i = from;
    this.nameStart = from;
    this.localStart = from;
    while (i < bytes.length && !isNameEnd(bytes[i])) {
      if (bytes[i] === 58) this.localStart = i + 1;
      i++;
    }
    if (i === from) this.fail('BAD_XML', 'A tag without a name', from);
    this.nameEnd = i;
    this.i = i;
  }

  private readAttributes(): void {
    const bytes = this.bytes;
    let i = this.i;
    let count = 0;
    for (;;) {
      while (i < bytes.length && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13)) i++;
      if (i >= bytes.length) this.fail('TRUNCATED', 'The part ends inside a tag', i);
      const c = bytes[i];
      if (c === 62 || (c === 47 && bytes[i + 1] === 62)) {
        this.selfClosing = c === 47;
        this.i = i + (c === 47 ? 2 : 1);
        this.attributeCount = count;
        return;
      }
      let localStart = i;
      while (i < bytes.length && bytes[i] !== 61 && !isNameEnd(bytes[i])) {
        if (bytes[i] === 58) localStart = i + 1;
        i++;
      }
      const nameEnd = i;
      while (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13) i++;
      if (bytes[i] !== 61 || nameEnd === localStart) this.fail('BAD_XML', 'A malformed attribute', i);
      i++;
      while (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13) i++;
      const quote = bytes[i];
      if (quote !== 34 && quote !== 39) this.fail('BAD_XML', 'An attribute value without quotes', i);
      const valueStart = ++i;
      while (i < bytes.length && bytes[i] !== quote) i++;
      if (i >= bytes.length) this.fail('TRUNCATED', 'The part ends inside an attribute value', valueStart);
      if (count * 4 + 4 > this.attributes.length) {
        const more = new Int32Array(this.attributes.length * 2);
        more.set(this.attributes);
        this.attributes = more;
      }
      const a = this.attributes;
      a[count * 4] = localStart;
      a[count * 4 + 1] = nameEnd;
      a[count * 4 + 2] = valueStart;
      a[count * 4 + 3] = i;
      count++;
      i++;
    }
  }

  /** The element's name as written, with any prefix ("m:colorgroup"). */
  elementName(): string {
    return utf8.decode(this.bytes.subarray(this.nameStart, this.nameEnd));
  }

  /** The name of attribute `n` as written, with any prefix ("xmlns:m"). */
  attributeName(n: number): string {
    let start = this.attributes[n * 4];
    if (this.bytes[start - 1] === 58) {
      start--;
      while (start > 0 && !isNameEnd(this.bytes[start - 1]) && this.bytes[start - 1] !== 34 && this.bytes[start - 1] !== 39) start--;
    }
    return utf8.decode(this.bytes.subarray(start, this.attributes[n * 4 + 1]));
  }

  /** 1-based line of a byte offset in this part. */
  lineOf(offset: number): number {
    return lineAt(this.bytes, offset);
  }

  /** Is the element's local name `name`? */
  is(name: string): boolean {
    if (this.nameEnd - this.localStart !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.bytes[this.localStart + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** Index of the attribute with this local name, or -1. */
  find(name: string): number {
    const a = this.attributes;
    outer: for (let n = 0; n < this.attributeCount; n++) {
      const start = a[n * 4];
      if (a[n * 4 + 1] - start !== name.length) continue;
      for (let k = 0; k < name.length; k++) if (this.bytes[start + k] !== name.charCodeAt(k)) continue outer;
      return n;
    }
    return -1;
  }

  valueStart(n: number): number {
    return this.attributes[n * 4 + 2];
  }

  valueEnd(n: number): number {
    return this.attributes[n * 4 + 3];
  }

  /** The attribute's value as a string, with the five predefined entities and character references decoded. */
  string(name: string): string | null {
    const n = this.find(name);
    return n < 0 ? null : this.valueString(n);
  }

  /** The value of attribute `n` as a string, decoded as string() decodes it. */
  valueString(n: number): string {
    const raw = utf8.decode(this.bytes.subarray(this.valueStart(n), this.valueEnd(n)));
    if (!raw.includes('&')) return raw;
    return raw.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#[0-9]+);/g, (_all, entity: string) => {
      if (entity[0] === '#') {
        const code = entity[1] === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      }
      return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[entity];
    });
  }
}
