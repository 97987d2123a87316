// The reset-mid-body fault: the handler receives the first `limit` bytes of the request body,
// then the connection dies as a real network failure would, so upload resume can be tested.
import type { IncomingMessage } from 'node:http';
import { pipeline, Transform } from 'node:stream';
import type { Readable } from 'node:stream';

export function cutBodyAfter(req: IncomingMessage, limit: number): Readable {
  let seen = 0;
  const cut = new Transform({
    // Past the cut the body must never end normally, even when it had arrived whole.
    flush(done) {
      if (seen <= limit) done();
    },
    transform(chunk: Buffer, _encoding, done) {
      const room = limit - seen;
      seen += chunk.length;
      if (room >= chunk.length) return done(null, chunk);
      if (room > 0) this.push(chunk.subarray(0, room));
      done();
      if (room >= 0) setImmediate(reset);
    },
  });
  // The bytes before the cut reach the handler first, as bytes already in a server's socket
  // buffer would; then the connection dies, and the handler sees a broken body even if the
  // whole body had already arrived.
  const reset = () => {
    if (cut.readableLength > 0 && !cut.destroyed) return void setImmediate(reset);
    req.socket?.destroy();
    cut.destroy(Object.assign(new Error('aborted (reset-mid-body fault)'), { code: 'ECONNRESET' }));
  };
  // pipeline, not pipe: the reset must surface in `cut` as an error, as it would in the request.
  pipeline(req, cut, () => {});
  return cut;
}
