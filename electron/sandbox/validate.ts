// Small shared checks whose wording follows the spec's validation table ("X is not set").
import { badRequest } from './http.ts';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isGuid(value: unknown): value is string {
  return typeof value === 'string' && GUID.test(value);
}

/** A GUID parameter, lower-cased so lookups do not depend on the caller's casing. */
export function requireGuid(value: unknown, label: string): string {
  if (value === undefined || value === null || value === '') throw badRequest(`${label} is not set`);
  if (!isGuid(value)) throw badRequest(`${label} must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)`);
  return value.toLowerCase();
}

export function requireString(value: unknown, label: string): string {
  if (value === undefined || value === null || value === '') throw badRequest(`${label} is not set`);
  if (typeof value !== 'string') throw badRequest(`${label} must be a string`);
  return value;
}

// Deliberately loose (one @, a dot in the domain, no spaces): stricter checks reject real addresses.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

/** Unix seconds → the spec's timestamp form YYYY-MM-DDTHH:mm:ssZ (no milliseconds). */
export function isoSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
