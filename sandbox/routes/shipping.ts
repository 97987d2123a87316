// POST /Shipping/GetShippingMethods (spec 4.1). Checks run in the order of the spec's validation
// table: empty body, country, models/package, weight, dimensions; then the models themselves.
import { badRequest, ok, requireObject } from '../http.ts';
import { parseCountry, parseModelEntries, resolveModels } from '../order-input.ts';
import type { Route } from '../router.ts';
import { quote } from '../shipping.ts';
import type { Parcel } from '../shipping.ts';

export const NEED_MODELS_OR_PACKAGE = 'Either models or package is required';
export const BAD_WEIGHT = 'Package weight is required and must be greater than 0 grams';
export const BAD_DIMENSIONS =
  'Package length, width and height are required when dimensions are supplied and must be greater than 0 centimeters';

export const getShippingMethods: Route = {
  method: 'POST',
  path: '/Shipping/GetShippingMethods',
  auth: true,
  body: 'json',
  handle(ctx) {
    const body = requireObject(ctx.body);
    const country = parseCountry(body.country);
    const hasModels = body.models !== undefined && body.models !== null;
    const hasPackage = body.package !== undefined && body.package !== null;
    if (!hasModels && !hasPackage) throw badRequest(NEED_MODELS_OR_PACKAGE);
    if (hasModels && hasPackage) throw badRequest('Give either models or package, not both');
    let parcel: Parcel;
    if (hasPackage) {
      parcel = parsePackage(body.package);
    } else {
      const entries = parseModelEntries(body.models);
      parcel = { weightGrams: resolveModels(ctx.services.db, ctx.user!.user_id, entries).weightGrams };
    }
    return ok({ methods: quote(country, parcel) });
  },
};

function parsePackage(value: unknown): Parcel {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('Package must be an object');
  const pkg = value as Record<string, unknown>;
  if (!positive(pkg.weight)) throw badRequest(BAD_WEIGHT);
  const given = ['length', 'width', 'height'].filter((key) => pkg[key] !== undefined && pkg[key] !== null);
  if (given.length === 0) return { weightGrams: pkg.weight };
  if (given.length !== 3 || !positive(pkg.length) || !positive(pkg.width) || !positive(pkg.height)) {
    throw badRequest(BAD_DIMENSIONS);
  }
  return { weightGrams: pkg.weight, dimensionsCm: { length: pkg.length, width: pkg.width, height: pkg.height } };
}

/** Only real numbers: "5" as a string is rejected, so a client's type bug shows up here. */
function positive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1e9;
}
