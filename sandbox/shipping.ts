// The sandbox's shipping provider: a fixed catalogue of carriers and methods, priced from
// chargeable weight (actual or volumetric, whichever is more) and distance zone. Deterministic
// for a given request and day: the same parcel to the same country always costs the same.
import type { Country, Zone } from './countries.ts';
import { isoSeconds } from './validate.ts';

/** Applied per model unit when a quote is asked for models rather than a package (spec 4.1 rule 3). */
export const DEFAULT_MODEL_WEIGHT_GRAMS = 250;
/** Volumetric divisor used by parcel carriers: cm³ / 5000 = kg. */
const VOLUMETRIC_DIVISOR = 5000;
export const CURRENCY = 'EUR';

export interface ShippingMethod {
  shippingMethodId: number;
  carrier: string;
  method: string;
  servicePoint: boolean;
  price: number;
  minDeliveryTime: string;
  maxDeliveryTime: string;
  estimatedDeliveryTime: string;
}

export interface Parcel {
  weightGrams: number;
  dimensionsCm?: { length: number; width: number; height: number };
}

interface CatalogueEntry {
  id: number;
  carrier: string;
  method: string;
  servicePoint: boolean;
  zones: readonly Zone[];
  /** heaviest chargeable weight accepted, grams */
  maxGrams: number;
  /** base price and price per started kg, cents, in zone 0 */
  base: number;
  perKg: number;
  /** [min, max] business days to deliver, per zone 0..3 */
  days: Record<number, readonly [number, number]>;
}

const ZONE_FACTOR: Record<number, number> = { 0: 1, 1: 1.6, 2: 2.2, 3: 3.5 };

const CATALOGUE: readonly CatalogueEntry[] = [
  { id: 101, carrier: 'POSTNL', method: 'standard', servicePoint: false, zones: [0, 1, 2], maxGrams: 30000, base: 495, perKg: 45, days: { 0: [1, 2], 1: [2, 5], 2: [3, 7] } },
  { id: 102, carrier: 'POSTNL', method: 'pickup', servicePoint: true, zones: [0, 1], maxGrams: 20000, base: 395, perKg: 35, days: { 0: [1, 3], 1: [3, 6] } },
  { id: 201, carrier: 'DHL', method: 'parcel', servicePoint: false, zones: [0, 1, 2, 3], maxGrams: 31500, base: 595, perKg: 60, days: { 0: [1, 2], 1: [2, 4], 2: [3, 5], 3: [5, 10] } },
  { id: 202, carrier: 'DHL', method: 'servicepoint', servicePoint: true, zones: [0, 1, 2], maxGrams: 20000, base: 450, perKg: 40, days: { 0: [1, 3], 1: [2, 5], 2: [4, 8] } },
  { id: 203, carrier: 'DHL', method: 'express', servicePoint: false, zones: [0, 1, 2, 3], maxGrams: 70000, base: 1995, perKg: 150, days: { 0: [1, 1], 1: [1, 2], 2: [1, 3], 3: [2, 4] } },
  { id: 301, carrier: 'UPS', method: 'standard', servicePoint: false, zones: [1, 2, 3], maxGrams: 70000, base: 895, perKg: 80, days: { 1: [2, 4], 2: [3, 6], 3: [6, 12] } },
  { id: 302, carrier: 'UPS', method: 'access_point', servicePoint: true, zones: [0, 1, 2], maxGrams: 20000, base: 520, perKg: 50, days: { 0: [1, 3], 1: [2, 5], 2: [3, 7] } },
];

export function chargeableGrams(parcel: Parcel): number {
  const d = parcel.dimensionsCm;
  const volumetric = d ? ((d.length * d.width * d.height) / VOLUMETRIC_DIVISOR) * 1000 : 0;
  return Math.max(parcel.weightGrams, volumetric);
}

/** Methods available for a parcel to a country, cheapest first; `now` anchors the delivery window. */
export function quote(country: Country, parcel: Parcel, now: Date = new Date()): ShippingMethod[] {
  if (country.zone === 9) return [];
  const grams = chargeableGrams(parcel);
  const startedKg = Math.max(1, Math.ceil(grams / 1000));
  return CATALOGUE.filter((entry) => entry.zones.includes(country.zone) && grams <= entry.maxGrams)
    .map((entry) => {
      const [minDays, maxDays] = entry.days[country.zone];
      return {
        shippingMethodId: entry.id,
        carrier: entry.carrier,
        method: entry.method,
        servicePoint: entry.servicePoint,
        price: Math.round((entry.base + entry.perKg * startedKg) * ZONE_FACTOR[country.zone]),
        minDeliveryTime: deliveryTime(now, minDays, 9),
        maxDeliveryTime: deliveryTime(now, maxDays, 18),
        estimatedDeliveryTime: deliveryTime(now, Math.round((minDays + maxDays) / 2), 14),
      };
    })
    .sort((a, b) => a.price - b.price || a.shippingMethodId - b.shippingMethodId);
}

/** A UTC time `businessDays` working days after today, at a fixed hour so quotes are stable within a day. */
function deliveryTime(now: Date, businessDays: number, hourUtc: number): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc));
  let left = businessDays;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return isoSeconds(day.getTime() / 1000);
}
