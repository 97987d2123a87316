// The buffers of a parsed model, each once, for postMessage's transfer list: a 100 MB model crosses
// between threads without a copy (and is gone from the sender).
import type { ParsedModel } from '../../common/models/index.ts';

export function buffersOf(model: Partial<Pick<ParsedModel, 'positions' | 'indices' | 'colors' | 'boundaryEdges' | 'proxy'>>): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const array of [model.positions, model.indices, model.colors, model.boundaryEdges, model.proxy?.positions, model.proxy?.indices, model.proxy?.colors]) {
    if (array && array.byteLength > 0) buffers.add(array.buffer as ArrayBuffer);
  }
  return [...buffers];
}
