// Messages between the renderer and the model worker. Every request carries an `id`; every reply names it.
// Errors travel as data (structured clone drops class identity), geometry as transferred buffers.
import { inflatePartsNatively } from './inflate-parts.ts';
import { buffersOf } from './model-buffers.ts';
import { isModelParseError, parseModel, pictureOf, simplify, type ModelErrorCode, type ModelErrorWhere, type ParsedModel } from '../../common/models/index.ts';

export interface ParseRequest {
  type: 'parse';
  id: number;
  bytes: ArrayBuffer;
  name: string;
  boundaryEdges?: boolean;
  skipTopology?: boolean;
  /** Post the model as soon as it is measured ('mesh'), then the topology's facts ('topology'). */
  early?: boolean;
  /** Add `model.proxy`, a copy of about this many triangles, to a model that has more. */
  proxy?: number;
  /** Only a picture is wanted: the model comes back as its proxy, so the full arrays never cross over. */
  pictureOnly?: boolean;
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
  | { type: 'mesh'; id: number; model: ParsedModel }
  | { type: 'topology'; id: number; facts: ParsedModel['facts']; boundaryEdges?: Float32Array }
  | { type: 'error'; id: number; error: WorkerError };

export type Post = (reply: WorkerReply, transfer?: Transferable[]) => void;

/** Progress is throttled to about one message per 2% so a huge file does not flood the main thread. */
const PROGRESS_STEP = 0.02;

/**
 * The early model goes out at once. Its positions and indices are copied only when the topology pass
 * still reads them (a soup, or a vertex table with its corners); copying in the worker is cheaper than
 * making the viewer wait.
 */
function postEarly(id: number, model: ParsedModel, arraysStillRead: boolean, post: Post): void {
  const early: ParsedModel = arraysStillRead ? { ...model, positions: model.positions.slice(), ...(model.indices ? { indices: model.indices.slice() } : {}) } : model;
  post({ type: 'mesh', id, model: early }, buffersOf(early));
}

/** The model with its proxy when one is asked for (a model within the budget is its own). */
function withProxy(model: ParsedModel, budget: number | undefined): ParsedModel {
  const proxy = budget ? simplify(model, budget) : null;
  return proxy ? { ...model, proxy } : model;
}

/** Parses one file and posts the replies; resolves once the last reply is posted. */
export async function handleRequest(request: WorkerRequest, post: Post): Promise<void> {
  const { id } = request;
  let lastProgress = -1;
  let sentEarly = false;
  try {
    const bytes = new Uint8Array(request.bytes);
    const inflateRaw = await inflatePartsNatively(bytes);
    const model = parseModel(bytes, request.name, {
      // The request's buffer was handed to this worker and is read by nothing else.
      bytesOwned: true,
      inflateRaw,
      boundaryEdges: request.boundaryEdges,
      skipTopology: request.skipTopology,
      onProgress: (fraction) => {
        if (fraction - lastProgress < PROGRESS_STEP && fraction < 1) return;
        lastProgress = fraction;
        post({ type: 'progress', id, fraction });
      },
      onMeasured: request.early
        ? (early, arraysStillRead) => {
            postEarly(id, withProxy(early, request.proxy), arraysStillRead, post);
            sentEarly = true;
          }
        : undefined,
    });
    if (sentEarly) post({ type: 'topology', id, facts: model.facts, boundaryEdges: model.boundaryEdges }, model.boundaryEdges ? [model.boundaryEdges.buffer as ArrayBuffer] : []);
    else {
      const whole = withProxy(model, request.proxy);
      const reply = request.pictureOnly ? pictureOf(whole) : whole;
      post({ type: 'result', id, model: reply }, buffersOf(reply));
    }
  } catch (error) {
    if (isModelParseError(error)) post({ type: 'error', id, error: error.toJSON() });
    else post({ type: 'error', id, error: { code: 'INTERNAL', message: `The model reader failed: ${(error as Error)?.message ?? String(error)}` } });
  }
}
