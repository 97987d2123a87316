// One action over many orders, as the Orders table's selection asks: each order is acted on by itself, and
// one that cannot be (cancelled meanwhile, offline, refused) is named with why, without stopping the others.
import PQueue from 'p-queue';
import type { BulkResult, Draft } from '../../contract/schemas/orders.ts';

/** Cancelling asks the service once per order: a few at a time, as the outbox sends. */
const SERVICE_CONCURRENCY = 4;

export async function eachOrder(ids: readonly string[], act: (id: string) => Draft | Promise<Draft>, referenceOf: (id: string) => string | Promise<string>): Promise<BulkResult> {
  const done: Draft[] = [];
  const failed: BulkResult['failed'] = [];
  const queue = new PQueue({ concurrency: SERVICE_CONCURRENCY });
  await queue.addAll(
    [...new Set(ids)].map((id) => async () => {
      try {
        done.push(await act(id));
      } catch (error) {
        failed.push({ id, reference: await referenceOf(id), message: error instanceof Error ? error.message : String(error) });
      }
    }),
  );
  // In the order asked, whatever order the answers came in.
  const position = new Map(ids.map((id, index) => [id, index]));
  const byPosition = (a: { id: string }, b: { id: string }) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0);
  return { done: done.sort(byPosition), failed: failed.sort(byPosition) };
}
