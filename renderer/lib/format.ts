import { readableBytes, readableDuration, readableNumber, readableSizeIn, type LengthUnit } from '../../common/readable-number.ts';
export { carrierName, methodName, shippingName } from '../../common/orders/shipping-names.ts';

/** Dates in the user's locale; the service speaks UTC ISO 8601. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** When something will happen, as the app says times elsewhere: "in under a minute", "at 7:29 PM", "Nov 25 at 9:00 AM". */
export function formatWhen(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (date.getTime() - now.getTime() < 60_000) return 'in under a minute';
  const time = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  if (date.toDateString() === now.toDateString()) return `at ${time}`;
  return `${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} at ${time}`;
}

/** When something last happened: the time if it was today, else the day and time. */
export function formatMoment(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const time = date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  if (date.toDateString() === now.toDateString()) return `today at ${time}`;
  return `${date.toLocaleDateString(undefined, { month: 'short', day: 'numeric', ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }) })} at ${time}`;
}

/** How old something is, short, for a table cell: "now", "4 min", "3 h", "2 d". */
export function formatAge(iso: string, now = Date.now()): string {
  const ms = now - Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const minutes = Math.floor(ms / 60_000);
  // Not "now": beside a price it read as the price now, where it is the quote's age.
  if (minutes < 1) return '<1 min';
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / 1440)} d`;
}

/** How old something is, in a sentence: "just now", "4 minutes ago", "3 hours ago", "2 days ago". */
export function formatAgo(iso: string, now = Date.now()): string {
  const age = formatAge(iso, now);
  if (age === '' || age === '<1 min') return age && 'just now';
  const [n, unit] = age.split(' ');
  const word = { min: 'minute', h: 'hour', d: 'day' }[unit] ?? unit;
  return `${n} ${word}${n === '1' ? '' : 's'} ago`;
}

// Formatters made once: each toLocale…String call with options makes one anew, which a table of thousands of
// rows cannot afford on every frame.
const STAMP_DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const STAMP_DAY_YEAR = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
const STAMP_TIME = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** A moment in a table cell: "Nov 3, 2:05 PM" (or "Nov 3" without `time`), with the year when it is not this one. */
export function formatStamp(iso: string, { time = true, now = new Date() } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = (date.getFullYear() === now.getFullYear() ? STAMP_DAY : STAMP_DAY_YEAR).format(date);
  return time ? `${day}, ${STAMP_TIME.format(date)}` : day;
}

export function formatDay(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
}

const moneyFormats = new Map<string, Intl.NumberFormat | null>();

/** Cents as money in the user's locale (one formatter per currency, made once). */
export function formatMoney(cents: number, currency = 'EUR'): string {
  if (!moneyFormats.has(currency)) {
    let format: Intl.NumberFormat | null = null;
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      // Not a currency Intl knows: written plainly below.
    }
    moneyFormats.set(currency, format);
  }
  const format = moneyFormats.get(currency);
  return format ? format.format(cents / 100) : `${(cents / 100).toFixed(2)} ${currency}`;
}

/** A delivery window as "Tue 24 Nov – Thu 26 Nov". */
export function formatWindow(min: string | null, max: string | null): string {
  if (!min && !max) return '—';
  if (!min || !max || formatDay(min) === formatDay(max)) return formatDay(min ?? max);
  return `${formatDay(min)} – ${formatDay(max)}`;
}

export function formatBytes(bytes: number | null): string {
  return bytes === null ? '—' : readableBytes(bytes);
}

export function formatDuration(seconds: number | null): string {
  return seconds === null || !Number.isFinite(seconds) ? '—' : readableDuration(seconds);
}

/** A length that is a power of ten (a grid cell): "10 mm", "0.1 mm", "1 m"; under 1 µm, "0.1 µm". In inches, as it is: "0.39 in". */
export function formatPowerOfTen(mm: number, unit: LengthUnit = 'mm'): string {
  if (unit === 'in') return `${+(mm / MM_PER_INCH).toPrecision(2)} in`;
  if (mm >= 1000) return `${+(mm / 1000).toPrecision(1)} m`;
  if (mm >= 0.001) return `${+mm.toPrecision(1)} mm`;
  return `${+(mm * 1000).toPrecision(1)} µm`;
}

/** The three sides of a model's box, as one line (as `printdesk inspect` writes them, or in inches). */
export function formatSize(size: readonly number[], unit: LengthUnit = 'mm'): string {
  return readableSizeIn(size, unit);
}

const MM_PER_INCH = 25.4;

/** A volume given in mm³, in cubic inches: for whoever reads sizes in inches. */
export const formatCubicInches = (mm3: number) => `${readableNumber(mm3 / MM_PER_INCH ** 3, 2)} in³`;
/** An area given in mm², in square inches. */
export const formatSquareInches = (mm2: number) => `${readableNumber(mm2 / MM_PER_INCH ** 2, 2)} in²`;

/**
 * A volume given in mm³: cm³ from 1 cm³ up, mm³ below, so a small part never reads "0 cm³". `unit` forces
 * one, so that a volume and a surface read side by side share it.
 */
export function formatVolume(mm3: number, unit: 'mm' | 'cm' = mm3 >= 1000 ? 'cm' : 'mm'): string {
  return unit === 'cm' ? `${readableNumber(mm3 / 1000, 2)} cm³` : `${readableNumber(mm3, 2)} mm³`;
}

/** An area given in mm²: cm² from 1 cm² up, mm² below. */
export function formatArea(mm2: number, unit: 'mm' | 'cm' = mm2 >= 100 ? 'cm' : 'mm'): string {
  return unit === 'cm' ? `${readableNumber(mm2 / 100, 1)} cm²` : `${readableNumber(mm2, 2)} mm²`;
}

/** One unit for a model's volume and surface: cm from a cubic centimetre up (by volume, or by area when open). */
export function measureUnit(mm3: number, mm2: number): 'mm' | 'cm' {
  return mm3 >= 1000 || (mm3 === 0 && mm2 >= 100) ? 'cm' : 'mm';
}

/** "1 order", "3 orders", "1,200 rows": a count with its noun, grouped for reading. */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}

/**
 * Where a method delivers, when its name does not say so already: "Pickup" is "at a service point",
 * "Service point" and "Access point" say it themselves.
 */
export function deliveryPlace(method: { method: string; servicePoint: boolean }): string | null {
  if (!method.servicePoint) return 'to the door';
  return /point|locker|shop/i.test(method.method) ? null : 'at a service point';
}

