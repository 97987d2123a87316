/**
 * `value` with up to `decimals` places, except that a small non-zero value keeps `significant` digits
 * (0.000213, not 0): a part drawn in metres must not read as having no volume. `locale` undefined is the
 * user's; the CLI passes 'en-US' so its output is the same everywhere.
 */
export function readableNumber(value: number, decimals: number, locale?: string, significant = 3): string {
  // Astronomical figures come from junk coordinates: digits by the dozen say nothing more.
  if (Math.abs(value) >= 1e12) return value.toExponential(significant - 1);
  if (value === 0 || Math.abs(value) >= 10 ** (significant - decimals - 1)) return value.toLocaleString(locale, { maximumFractionDigits: decimals });
  return value.toLocaleString(locale, { maximumSignificantDigits: significant });
}
