import type { Handlers } from '../dispatch.ts';
import type { Orders } from '../orders/index.ts';
import type { Connectivity } from '../session/connectivity.ts';

type OrderHandlers = Pick<
  Handlers,
  | 'connectivity:get'
  | 'quotes:get'
  | 'quotes:seen'
  | 'drafts:list'
  | 'drafts:get'
  | 'drafts:save'
  | 'drafts:keepUnsaved'
  | 'drafts:forgetUnsaved'
  | 'drafts:recoverUnsaved'
  | 'drafts:duplicate'
  | 'drafts:delete'
  | 'drafts:deleteMany'
  | 'drafts:addressBook'
  | 'orders:refresh'
  | 'orders:cancel'
  | 'orders:cancelMany'
  | 'orders:check'
  | 'orders:history'
  | 'outbox:place'
  | 'outbox:acceptChanges'
  | 'outbox:unqueue'
  | 'outbox:sendNow'
  | 'outbox:hold'
  | 'outbox:release'
  | 'outbox:retry'
  | 'outbox:waiting'
>;

export function orderHandlers(orders: Orders, connectivity: Connectivity): OrderHandlers {
  return {
    'connectivity:get': () => connectivity.state(),
    'quotes:get': (request) => orders.quoteOrLastSeen(request),
    'quotes:seen': ({ country }) => orders.seenQuotes(country),
    'drafts:list': ({ projectId }) => orders.list(projectId),
    'drafts:get': ({ id }) => orders.get(id),
    'drafts:save': ({ projectId, id, fields, version }) => orders.save(projectId, fields, id, version),
    'drafts:keepUnsaved': ({ projectId, id, fields }) => (orders.keepUnsaved(projectId, fields, id), null),
    'drafts:forgetUnsaved': () => (orders.forgetUnsaved(), null),
    'drafts:recoverUnsaved': () => orders.recoverUnsaved(),
    'drafts:duplicate': ({ id }) => orders.duplicate(id),
    'drafts:delete': async ({ id }) => {
      await orders.remove(id);
      return null;
    },
    'drafts:deleteMany': ({ ids }) => orders.bulk.remove(ids),
    'drafts:addressBook': () => orders.addressBook(),
    'orders:refresh': ({ projectId }) => orders.refresh(projectId),
    'orders:cancel': ({ id }) => orders.cancel(id),
    'orders:cancelMany': ({ ids }) => orders.bulk.cancel(ids),
    'orders:check': ({ id }) => orders.check(id),
    'orders:history': ({ id }) => orders.history(id),
    'outbox:place': ({ id }) => orders.place(id),
    'outbox:acceptChanges': ({ id }) => orders.acceptChanges(id),
    'outbox:unqueue': ({ id }) => orders.unqueue(id),
    'outbox:sendNow': ({ id }) => orders.sendNow(id),
    'outbox:hold': ({ ids }) => orders.bulk.hold(ids),
    'outbox:release': ({ ids }) => orders.bulk.release(ids),
    'outbox:retry': ({ ids }) => orders.bulk.retry(ids),
    'outbox:waiting': ({ projectId }) => orders.waiting(projectId),
  };
}
