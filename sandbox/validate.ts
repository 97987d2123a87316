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

/** An optional GUID: absent, null or '' give null. */
export function optionalGuid(value: unknown, label: string): string | null {
  return value === undefined || value === null || value === '' ? null : requireGuid(value, label);
}

/**
 * A name shown to people (folder, model, file): trimmed, NFC, 1..max characters, no control
 * characters (they break file systems and labels); any other Unicode is fine.
 */
export function requireName(value: unknown, label: string, max = 100): string {
  if (typeof value === 'string' && value.trim() === '') throw badRequest(`${label} is not set`);
  const name = requireString(value, label).trim().normalize('NFC');
  if (name.length > max) throw badRequest(`${label} must be at most ${max} characters`);
  if (/\p{Cc}/u.test(name)) throw badRequest(`${label} must not contain control characters`);
  return name;
}

export const MAX_PAGE_SIZE = 200;

/** page (1-based, default 1) and pageSize (1..200, default 50) from a query string. */
export function parsePaging(query: URLSearchParams): { page: number; pageSize: number } {
  return { page: wholeParam(query, 'page', 1, 1, 1_000_000), pageSize: wholeParam(query, 'pageSize', 50, 1, MAX_PAGE_SIZE) };
}

export function wholeParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw badRequest(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}
