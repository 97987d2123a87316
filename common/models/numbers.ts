// Byte-level number reading shared by the text parsers. No strings are made: the digits are folded into a
// double as they are read, which is what makes the text formats several times faster than split/parseFloat.

const POW10 = new Float64Array(23);
for (let i = 0; i < POW10.length; i++) POW10[i] = 10 ** i;

/** Where the last read stopped; a module-level cursor avoids allocating a result object per number. */
export const cursor = { end: 0 };

const MAX_EXACT_DIGITS = 15;

function scale(mantissa: number, exp10: number): number {
  if (mantissa === 0) return 0;
  if (exp10 >= 0) return exp10 <= 22 ? mantissa * POW10[exp10] : mantissa * 10 ** exp10;
  // Dividing two exact doubles is correctly rounded: the reason for stopping at 15 significant digits.
  return exp10 >= -22 ? mantissa / POW10[-exp10] : mantissa / 10 ** -exp10;
}

/**
 * Reads a decimal number (optional sign, digits, fraction, exponent) starting at `i`. Returns NaN when no
 * digits are there, so that the caller can tell "nan"/"inf" and garbage apart and name the offset.
 * Numbers of at most 15 digits (what exporters write) are folded in one loop without bookkeeping; longer
 * ones are read again by the careful path. Exact to the float32 the parsers store (and to the double for
 * up to 15 digits).
 */
export function readNumber(bytes: Uint8Array, i: number): number {
  const start = i;
  let c = bytes[i];
  const negative = c === 45;
  if (negative || c === 43) c = bytes[++i];
  let mantissa = 0;
  let digits = 0;
  let exp10 = 0;
  while (c >= 48 && c <= 57) {
    mantissa = mantissa * 10 + (c - 48);
    digits++;
    c = bytes[++i];
  }
  if (c === 46) {
    c = bytes[++i];
    const fractionStart = i;
    while (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      c = bytes[++i];
    }
    digits += i - fractionStart;
    exp10 = fractionStart - i;
  }
  if (digits === 0) {
    cursor.end = i;
    return NaN;
  }
  if (digits > MAX_EXACT_DIGITS) return readLongNumber(bytes, start);
  const value = magnitude(bytes, i, mantissa, exp10);
  return negative ? -value : value;
}

/** Reads the optional exponent at `i` and scales the digits by it; leaves `cursor.end` after the number. */
function magnitude(bytes: Uint8Array, i: number, mantissa: number, exp10: number): number {
  const c = bytes[i];
  if (c === 101 || c === 69) {
    const exponent = readExponent(bytes, i + 1);
    if (exponent !== null) {
      exp10 += exponent;
      i = cursor.end;
    }
  }
  cursor.end = i;
  return scale(mantissa, exp10);
}

/** The exponent's value after an "e", leaving `cursor.end` after it; null when no digits follow. */
function readExponent(bytes: Uint8Array, j: number): number | null {
  let e = bytes[j];
  let negative = false;
  if (e === 45 || e === 43) {
    negative = e === 45;
    e = bytes[++j];
  }
  if (!(e >= 48 && e <= 57)) return null;
  let exponent = 0;
  while (e >= 48 && e <= 57) {
    if (exponent < 100_000) exponent = exponent * 10 + (e - 48);
    e = bytes[++j];
  }
  cursor.end = j;
  return negative ? -exponent : exponent;
}

/**
 * Numbers of more than 15 digits (doubles printed in full): the first 15 significant digits are folded
 * exactly and the rest dropped, which is within 1e-14 of the value. That decides the float32 the parsers
 * store unless the value sits that close to a float32 rounding midpoint; only then is the text handed
 * to Number(), which rounds correctly.
 */
function readLongNumber(bytes: Uint8Array, start: number): number {
  let i = start;
  let c = bytes[i];
  const negative = c === 45;
  if (negative || c === 43) c = bytes[++i];
  let mantissa = 0;
  let significant = 0;
  let exp10 = 0;
  let dropped = false;
  while (c >= 48 && c <= 57) {
    if (significant < MAX_EXACT_DIGITS) {
      mantissa = mantissa * 10 + (c - 48);
      if (mantissa !== 0) significant++;
    } else {
      exp10++;
      dropped ||= c !== 48;
    }
    c = bytes[++i];
  }
  if (c === 46) {
    c = bytes[++i];
    while (c >= 48 && c <= 57) {
      if (significant < MAX_EXACT_DIGITS) {
        mantissa = mantissa * 10 + (c - 48);
        if (mantissa !== 0) significant++;
        exp10--;
      } else dropped ||= c !== 48;
      c = bytes[++i];
    }
  }
  const value = magnitude(bytes, i, mantissa, exp10);
  if (dropped && Math.fround(value * (1 - 1e-15)) !== Math.fround(value * (1 + 1e-14))) return Number(latin1(bytes, start, cursor.end));
  return negative ? -value : value;
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let k = from; k < to; k++) text += String.fromCharCode(bytes[k]);
  return text;
}

/** Reads an optionally signed integer; NaN when there are no digits. Stops at the first non-digit. */
export function readInt(bytes: Uint8Array, i: number): number {
  let c = bytes[i];
  let negative = false;
  if (c === 45 || c === 43) {
    negative = c === 45;
    c = bytes[++i];
  }
  let value = 0;
  let digits = 0;
  while (c >= 48 && c <= 57) {
    if (value < 1e15) value = value * 10 + (c - 48);
    digits++;
    c = bytes[++i];
  }
  cursor.end = i;
  if (digits === 0) return NaN;
  return negative ? -value : value;
}

/** Space, tab, CR, LF, vertical tab, form feed. */
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Does the text at `i` spell `word` (lower-case ASCII) ignoring case? */
export function matchesWord(bytes: Uint8Array, i: number, word: string): boolean {
  if (i + word.length > bytes.length) return false;
  for (let k = 0; k < word.length; k++) if ((bytes[i + k] | 32) !== word.charCodeAt(k)) return false;
  return true;
}

/** A short printable excerpt for error messages. */
export function excerpt(bytes: Uint8Array, i: number, length = 24): string {
  let text = '';
  for (let k = i; k < Math.min(bytes.length, i + length); k++) {
    const c = bytes[k];
    if (c === 10 || c === 13) break;
    text += c >= 32 && c < 127 ? String.fromCharCode(c) : '?';
  }
  return JSON.stringify(text);
}
