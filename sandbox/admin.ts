// The loopback-only admin endpoint through which tests and `operator faults …` switch fault
// injection in a running sandbox: GET lists, POST replaces, DELETE clears /__admin/faults.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { FaultControl } from './faults.ts';
import { faultSpecSchema } from './faults.ts';
import { ApiError, badRequest, failure, ok, readJsonBody } from './http.ts';
import type { Reply } from './http.ts';

export const ADMIN_PREFIX = '/__admin';
export const ADMIN_SECRET_HEADER = 'x-admin-secret';

const faultsBody = z.union([
  faultSpecSchema,
  z.array(faultSpecSchema),
  z.strictObject({ faults: z.array(faultSpecSchema) }),
]);

export async function handleAdmin(req: IncomingMessage, pathname: string, secret: string, faults: FaultControl): Promise<Reply> {
  if (!isLoopback(req.socket.remoteAddress)) throw new ApiError(403, 'NO_PERMISSION', 'The admin endpoint only answers loopback clients');
  if (!secretMatches(req.headers[ADMIN_SECRET_HEADER], secret)) {
    throw new ApiError(401, 'AUTHENTICATION', 'X-Admin-Secret header is missing or wrong');
  }
  if (pathname !== `${ADMIN_PREFIX}/faults`) return failure(404, 'NOT_FOUND', `No admin endpoint ${pathname}`);
  switch (req.method) {
    case 'GET':
      return ok({ faults: faults.list() });
    case 'DELETE':
      faults.clear();
      return ok({ faults: [] });
    case 'POST':
      return ok({ faults: faults.set(await parseFaults(req)) });
    default:
      return failure(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${pathname}`, { Allow: 'GET, POST, DELETE' });
  }
}

async function parseFaults(req: IncomingMessage) {
  const body = await readJsonBody(req);
  if (body.kind === 'empty') throw badRequest('Request body is empty');
  const parsed = faultsBody.safeParse(body.value);
  if (!parsed.success) throw badRequest(`Invalid fault: ${z.prettifyError(parsed.error)}`);
  const value = parsed.data;
  return Array.isArray(value) ? value : 'faults' in value ? value.faults : [value];
}

export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

function secretMatches(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
