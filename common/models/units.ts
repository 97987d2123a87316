import type { Vec3 } from './types.ts';

/** The 3MF core spec's units, and their size in millimetres. */
export const UNIT_MM = {
  micron: 0.001,
  millimeter: 1,
  centimeter: 10,
  inch: 25.4,
  foot: 304.8,
  meter: 1000,
} as const;

export type UnitName = keyof typeof UNIT_MM;

export function isUnitName(name: string): name is UnitName {
  return Object.hasOwn(UNIT_MM, name);
}

/** Largest build volumes of desktop and service printers are well under 2 m; smaller than 1 mm is a speck. */
const SMALLEST_PLAUSIBLE_MM = 1;
const SMALL_MM = 5;
const LARGEST_PLAUSIBLE_MM = 2000;

function scaled(size: Vec3, factor: number): Vec3 {
  return [size[0] * factor, size[1] * factor, size[2] * factor];
}

function mm(value: number): string {
  return `${Number(value.toPrecision(4))} mm`;
}

function described(size: Vec3): string {
  return `${mm(size[0])} × ${mm(size[1])} × ${mm(size[2])}`;
}

/** What to do about a unit guess: STL and OBJ carry no unit, and the print service reads them as millimetres. */
const EXPORT_IN_MM = 'Export it again in millimetres before ordering.';

/**
 * STL and OBJ carry no unit, so their numbers are read as millimetres. When the result is implausible for a
 * print we say which unit it was probably drawn in, and what size that would give; we never rescale silently.
 * Rules (largest side L, read as mm):
 * - L < 1: a part under a millimetre is almost never meant; metres are the usual culprit (Blender, many CAD
 *   exports). Suggest ×1000.
 * - 1 ≤ L < 5: small but printable; inches are a common cause (US CAD). Suggest ×25.4 and say it is a maybe.
 * - L > 2000: larger than any print bed; microns or a unit mix-up (e.g. ×1000 from metres-to-mm twice).
 *   Suggest ÷1000.
 * Declared units (3MF) are trusted: only the size warning is given.
 */
export function guessUnit(size: Vec3, declared: UnitName | null): { guess?: { unit: UnitName; sizeMm: Vec3; reason: string }; warning?: string } {
  const largest = Math.max(size[0], size[1], size[2]);
  if (!(largest > 0)) return {};
  if (declared) {
    if (largest > LARGEST_PLAUSIBLE_MM) return { warning: `The model is ${described(size)}: larger than any print bed.` };
    if (largest < SMALLEST_PLAUSIBLE_MM) return { warning: `The model is ${described(size)}: smaller than a millimetre.` };
    return {};
  }
  if (largest < SMALLEST_PLAUSIBLE_MM) {
    const sizeMm = scaled(size, UNIT_MM.meter);
    const reason = `Only ${mm(largest)} across when read as millimetres: probably drawn in metres (would be ${mm(largest * 1000)}).`;
    return { guess: { unit: 'meter', sizeMm, reason }, warning: `${reason} ${EXPORT_IN_MM}` };
  }
  if (largest < SMALL_MM) {
    const sizeMm = scaled(size, UNIT_MM.inch);
    const reason = `Only ${mm(largest)} across when read as millimetres: if it was drawn in inches it would be ${mm(largest * UNIT_MM.inch)}.`;
    return { guess: { unit: 'inch', sizeMm, reason }, warning: `${reason} ${EXPORT_IN_MM}` };
  }
  if (largest > LARGEST_PLAUSIBLE_MM) {
    const sizeMm = scaled(size, UNIT_MM.micron);
    const reason = `${mm(largest)} across when read as millimetres, larger than any print bed: probably in microns (would be ${mm(largest / 1000)}).`;
    return { guess: { unit: 'micron', sizeMm, reason }, warning: `${reason} ${EXPORT_IN_MM}` };
  }
  return {};
}
