// What a kept quote was for, in words: the models and their quantities, or the parcel.
import type { QuoteRequest } from '../../electron/contract/schemas/orders.ts';
import type { LengthUnit } from '../../common/readable-number.ts';
import { formatSize } from './format.ts';

const CM_PER_INCH = 2.54;

/** "2 × Moon-binary, 1 × Cube" or "a parcel of 800 g, 20.0 × 15.0 × 10.0 cm". */
export function quoteFor(request: QuoteRequest, units: LengthUnit = 'mm'): string {
  if (request.models) return request.models.map((line) => `${line.quantity} × ${line.name ?? `${line.modelId.slice(0, 8)}…`}`).join(', ');
  const pkg = request.package;
  if (!pkg) return 'nothing';
  const dims = pkg.length !== null && pkg.width !== null && pkg.height !== null ? [pkg.length, pkg.width, pkg.height] : null;
  const size = dims ? (units === 'in' ? formatSize(dims.map((cm) => cm * 10), 'in') : `${dims.join(' × ')} cm`) : null;
  return `a parcel of ${pkg.weight ?? '?'} g${size ? `, ${size}` : ''}`;
}

/** A parcel side typed in the unit shown, in the centimetres the service takes (NaN and null as they are). */
export function sideInCm(value: number | null, units: LengthUnit): number | null {
  if (value === null || Number.isNaN(value) || units !== 'in') return value;
  return Math.round(value * CM_PER_INCH * 100) / 100;
}
