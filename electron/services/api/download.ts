// A GET whose answer is a file, not an envelope. The bytes go into one buffer of the announced size, so a
// large model costs its size once; a body over the caller's limit is refused before it is read (or cut
// off, when no size was announced).
import got from 'got';
import type { Response } from 'got';
import type { Readable } from 'node:stream';
import { parseRetryAfter } from './backoff.ts';
import { HostError } from './errors.ts';
import { header, networkError } from './transport.ts';
import type { HttpRequest, HttpResponse } from './transport.ts';

export interface DownloadResponse extends HttpResponse {
  /** the file, when the status is 200 */
  bytes?: Uint8Array<ArrayBuffer>;
}

// An error envelope is small; anything past this is not one.
const ENVELOPE_LIMIT = 1024 * 1024;

export async function fetchBytes(request: Omit<HttpRequest, 'json' | 'method'>, maxBytes: number): Promise<DownloadResponse> {
  const stream = got.stream(request.url, {
    headers: { accept: 'application/octet-stream, application/json', ...request.headers },
    timeout: { request: request.timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: false,
  });
  try {
    const response = await new Promise<Response>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('error', reject);
    });
    const base: HttpResponse = {
      status: response.statusCode,
      body: '',
      headers: response.headers,
      retryAfterSeconds: parseRetryAfter(header(response.headers['retry-after'])),
    };
    if (response.statusCode !== 200) return { ...base, body: new TextDecoder().decode(await collect(stream, ENVELOPE_LIMIT, undefined)) };
    const declared = Number(header(response.headers['content-length']));
    const size = Number.isSafeInteger(declared) ? declared : undefined;
    if (size !== undefined && size > maxBytes) throw tooLarge(maxBytes);
    return { ...base, bytes: await collect(stream, maxBytes, size) };
  } catch (error) {
    stream.destroy();
    if (error instanceof HostError) throw error;
    throw networkError({ ...request, method: 'GET' }, error);
  }
}

async function collect(stream: Readable, limit: number, size: number | undefined): Promise<Uint8Array<ArrayBuffer>> {
  let out = new Uint8Array(size ?? 64 * 1024);
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (length + chunk.length > limit) throw tooLarge(limit);
    if (length + chunk.length > out.length) {
      if (size !== undefined) throw new HostError('OFFLINE', `The service sent more than the ${size} bytes it announced`, { details: { ambiguous: false } });
      const bigger = new Uint8Array(Math.max(out.length * 2, length + chunk.length));
      bigger.set(out.subarray(0, length));
      out = bigger;
    }
    out.set(chunk, length);
    length += chunk.length;
  }
  if (size !== undefined && length !== size) {
    throw new HostError('OFFLINE', `The download ended after ${length} of ${size} bytes`, { details: { ambiguous: true } });
  }
  return length === out.length ? out : out.slice(0, length);
}

function tooLarge(limit: number): HostError {
  return new HostError('FILE_INVALID', `The file is larger than the ${Math.round(limit / 2 ** 20)} MiB allowed here`);
}
