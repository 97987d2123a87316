// Messages between the renderer and the model worker. Every request carries an `id`; every reply names it.
// Errors travel as data (structured clone drops class identity), geometry as transferred buffers.
import { isModelParseError, parseModel, type ModelErrorCode, type ModelErrorWhere, type ParsedModel } from '../../common/models/index.ts';

export interface ParseRequest {
  type: 'parse';
  id: number;
  bytes: ArrayBuffer;
  name: string;
  boundaryEdges?: boolean;
}

export type WorkerRequest = ParseRequest;

export interface WorkerError {
  /** A ModelErrorCode for a bad file; INTERNAL for a bug in the worker. */
  code: ModelErrorCode | 'INTERNAL';
  message: string;
  where?: ModelErrorWhere;
}

export type WorkerReply =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'result'; id: number; model: ParsedModel }
  | { type: 'error'; id: number; error: WorkerError };

export type Post = (reply: WorkerReply, transfer?: Transferable[]) => void;

/** Progress is throttled to about one message per 2% so a huge file does not flood the main thread. */
const PROGRESS_STEP = 0.02;

export function handleRequest(request: WorkerRequest, post: Post): void {
  const { id } = request;
  let lastProgress = -1;
  try {
    const model = parseModel(new Uint8Array(request.bytes), request.name, {
      boundaryEdges: request.boundaryEdges,
      onProgress: (fraction) => {
        if (fraction - lastProgress < PROGRESS_STEP && fraction < 1) return;
        lastProgress = fraction;
        post({ type: 'progress', id, fraction });
      },
    });
    const transfer: Transferable[] = [model.positions.buffer as ArrayBuffer];
    if (model.colors) transfer.push(model.colors.buffer as ArrayBuffer);
    if (model.boundaryEdges) transfer.push(model.boundaryEdges.buffer as ArrayBuffer);
    post({ type: 'result', id, model }, transfer);
  } catch (error) {
    if (isModelParseError(error)) post({ type: 'error', id, error: error.toJSON() });
    else post({ type: 'error', id, error: { code: 'INTERNAL', message: `The model reader failed: ${(error as Error)?.message ?? String(error)}` } });
  }
}
