// Messages between the renderer and the model worker. Every request carries an `id`; every reply names it.
// Errors travel as data (structured clone drops class identity), geometry as transferred buffers.
import { inflatePartsNatively } from './inflate-parts.ts';
import { buffersOf } from './model-buffers.ts';
import { wallClock, type StageMarks } from './marks.ts';
import { isModelParseError, parseModel, pictureOf, simplify, type ArraysFree, type ModelArrays, type ModelErrorCode, type ModelErrorWhere, type ParsedModel } from '../../common/models/index.ts';

export interface ParseRequest {
  type: 'parse';
  id: number;
  bytes: ArrayBuffer;
  name: string;
  boundaryEdges?: boolean;
  skipTopology?: boolean;
  /** Post the model as soon as it is measured ('mesh', then 'arrays' for one sent as its proxy), then the topology's facts ('topology'). */
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
  /** `marks`: when the worker got the file, had read and measured it, built its proxy (see marks.ts). */
  | { type: 'result'; id: number; model: ParsedModel; marks: StageMarks }
  /** The model measured; with `arraysFollow`, as its proxy alone, its arrays empty until 'arrays' brings them. */
  | { type: 'mesh'; id: number; model: ParsedModel; arraysFollow: boolean; marks: StageMarks }
  | { type: 'arrays'; id: number; arrays: ModelArrays; marks: StageMarks }
  | { type: 'topology'; id: number; facts: ParsedModel['facts']; boundaryEdges?: Float32Array }
  | { type: 'error'; id: number; error: WorkerError };

export type Post = (reply: WorkerReply, transfer?: Transferable[]) => void;

/** Progress is throttled to about one message per 2% so a huge file does not flood the main thread. */
const PROGRESS_STEP = 0.02;

const arraysOf = ({ positions, indices, colors }: ModelArrays): ModelArrays => ({ positions, ...(indices ? { indices } : {}), ...(colors ? { colors } : {}) });
/** Copies of the arrays the topology pass still reads (the colours it never does); copying in the worker is cheaper than making the viewer wait. */
const copiesOf = ({ positions, indices, colors }: ModelArrays): ModelArrays => ({ positions: positions.slice(), ...(indices ? { indices: indices.slice() } : {}), ...(colors ? { colors } : {}) });

/**
 * The replies sent before the topology's: the measured model goes out at once. One with a proxy goes as
 * its proxy alone, so that the first picture waits for no copy of a large model's arrays (72 MB for 2M
 * triangles); its arrays follow as soon as the topology pass leaves them (a soup's once welded, handed
 * over without a copy), or copied at once (a vertex table's, read to the pass's end). A model without a
 * proxy goes whole, its arrays copied when the pass still reads them.
 */
function earlyReplies(id: number, budget: number | undefined, marks: StageMarks, post: Post) {
  let waiting: ModelArrays | null = null;
  const sendArrays = (arrays: ModelArrays) => {
    marks['worker-arrays'] = wallClock();
    post({ type: 'arrays', id, arrays, marks }, buffersOf(arrays));
  };
  return {
    measured(early: ParsedModel, arraysFree: ArraysFree): void {
      const model = withProxy(early, budget, marks);
      if (!model.proxy) {
        const whole = arraysFree === 'now' ? model : { ...model, ...copiesOf(model) };
        marks['worker-posted'] = wallClock();
        return post({ type: 'mesh', id, model: whole, arraysFollow: false, marks }, buffersOf(whole));
      }
      const { format, facts, proxy } = model;
      marks['worker-posted'] = wallClock();
      post({ type: 'mesh', id, model: { format, facts, proxy, positions: new Float32Array(0) }, arraysFollow: true, marks }, buffersOf({ proxy }));
      if (arraysFree === 'after weld') waiting = arraysOf(model);
      else sendArrays(arraysFree === 'now' ? arraysOf(model) : copiesOf(model));
    },
    welded(): void {
      if (waiting) sendArrays(waiting);
      waiting = null;
    },
  };
}

/** The model with its proxy when one is asked for (a model within the budget is its own). */
function withProxy(model: ParsedModel, budget: number | undefined, marks: StageMarks): ParsedModel {
  marks['worker-read'] = wallClock();
  const proxy = budget ? simplify(model, budget) : null;
  marks['worker-proxy'] = wallClock();
  return proxy ? { ...model, proxy } : model;
}

/** Parses one file and posts the replies; resolves once the last reply is posted. */
export async function handleRequest(request: WorkerRequest, post: Post): Promise<void> {
  const { id } = request;
  const marks: StageMarks = { 'worker-got': wallClock() };
  let lastProgress = -1;
  let sentEarly = false;
  const early = earlyReplies(id, request.proxy, marks, post);
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
        ? (measured, arraysFree) => {
            early.measured(measured, arraysFree);
            sentEarly = true;
          }
        : undefined,
      onWelded: () => early.welded(),
    });
    if (sentEarly) post({ type: 'topology', id, facts: model.facts, boundaryEdges: model.boundaryEdges }, model.boundaryEdges ? [model.boundaryEdges.buffer as ArrayBuffer] : []);
    else {
      const whole = withProxy(model, request.proxy, marks);
      const reply = request.pictureOnly ? pictureOf(whole) : whole;
      post({ type: 'result', id, model: reply, marks }, buffersOf(reply));
    }
  } catch (error) {
    if (isModelParseError(error)) post({ type: 'error', id, error: error.toJSON() });
    else post({ type: 'error', id, error: { code: 'INTERNAL', message: `The model reader failed: ${(error as Error)?.message ?? String(error)}` } });
  }
}
