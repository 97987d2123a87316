/**
 * `value` with up to `decimals` places, except that a small non-zero value keeps `significant` digits
 * (0.000213, not 0): a part drawn in metres must not read as having no volume. `locale` undefined is the
 * user's; the CLI passes 'en-US' so its output is the same everywhere.
 */
export function readableNumber(value: number, decimals: number, locale?: string, significant = 3): string {
  // Astronomical figures come from junk coordinates, and microscopic ones from a file in the wrong unit:
  // digits by the dozen, or zeros by the dozen, say nothing more.
  if (Math.abs(value) >= 1e12 || (value !== 0 && Math.abs(value) < 1e-4)) return value.toExponential(significant - 1);
  if (value === 0 || Math.abs(value) >= 10 ** (significant - decimals - 1)) return value.toLocaleString(locale, { maximumFractionDigits: decimals });
  return value.toLocaleString(locale, { maximumSignificantDigits: significant });
}

/**
 * A model's side in mm, read the same in the app and in `printdesk inspect`: 2 decimals under 10 mm, 1
 * above, 3 significant digits under 0.1 mm (a part drawn in metres), and beyond a kilometre (a file in the
 * wrong unit, or junk coordinates) 3 significant digits in exponent form, so the figure stays short.
 */
export function readableLength(mm: number, locale?: string): string {
  const size = Math.abs(mm);
  if (size >= 1e6) return mm.toExponential(2);
  if (size < 0.1 && size > 0) return mm.toLocaleString(locale, { maximumSignificantDigits: 3 });
  const decimals = size < 10 ? 2 : 1;
  return mm.toLocaleString(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** The three sides of a model's box, as one line. */
export function readableSize(size: readonly number[], locale?: string): string {
  return readableSizeIn(size, 'mm', locale);
}

/** Millimetres, or inches for whoever thinks in them. */
export type LengthUnit = 'mm' | 'in';
const MM_PER_INCH = 25.4;

/** A length given in mm, in the unit chosen, with its unit: "12.50 mm", "0.49 in". */
export function readableLengthIn(mm: number, unit: LengthUnit = 'mm', locale?: string): string {
  return unit === 'in' ? `${readableLength(mm / MM_PER_INCH, locale)} in` : `${readableLength(mm, locale)} mm`;
}

/** The three sides of a box given in mm, as one line in the unit chosen. */
export function readableSizeIn(size: readonly number[], unit: LengthUnit = 'mm', locale?: string): string {
  const factor = unit === 'in' ? MM_PER_INCH : 1;
  return `${size.map((side) => readableLength(side / factor, locale)).join(' × ')} ${unit}`;
}

/** A file's size in binary units, one decimal under 10 (49.2 KB, 512 MB): said alike by the app and the host. */
export function readableBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/**
 * A time left, said alike by the app and the CLI: "45 s", "2 min 5 s", "1 h 5 min". Parts of a second
 * and of a minute round up, so it never promises less time than is left.
 */
export function readableDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`;
}
