// Settings → Team's channels: where drafts live, a connection's test, the switch, and moving this computer's
// work into the team store.
import type { Draft } from '../../contract/schemas/orders.ts';
import { HostError } from '../api/errors.ts';
import type { Handlers } from '../dispatch.ts';
import type { Orders } from '../orders/index.ts';
import { otherSenders } from '../orders/sender-lock.ts';
import { createOrdersStore, type StoreIdentity } from '../orders/store.ts';
import type { Db } from '../storage/database.ts';
import { sqliteSql } from '../storage/sqlite-sql.ts';
import { moveLocalWork } from '../team/move-local-work.ts';
import type { StoreSwitch } from '../team/store-switch.ts';

type TeamHandlers = Pick<Handlers, 'team:get' | 'team:test' | 'team:use' | 'team:moveLocalWork'>;

export interface TeamHandlerDeps {
  /** absent where the host was built without a front door (tests): Settings → Team is not offered */
  team: StoreSwitch | undefined;
  db: Db;
  /** this computer as the histories name it */
  identity: StoreIdentity & { name: string };
  /** the signed-in account, or null */
  account: () => string | null;
  /** the drafts and outbox, when they run on this computer's store: its outbox waits while the work moves */
  localOrders: () => Orders | null;
  /** the user works offline: the outbox stays held after the move */
  workingOffline: () => boolean;
  onDraft: (draft: Draft) => void;
}

export function teamHandlers(deps: TeamHandlerDeps): TeamHandlers {
  const team = () => {
    if (!deps.team) throw new HostError('INVALID_INPUT', 'Where drafts live is chosen in the app’s Settings → Team.');
    return deps.team;
  };

  async function move(target: Parameters<StoreSwitch['withTeamStore']>[0]) {
    const account = deps.account();
    if (!account) throw new HostError('NOT_SIGNED_IN', 'Sign in first: each person moves their own drafts and batches.');
    const others = otherSenders(deps.db);
    if (others.length) {
      throw new HostError('INVALID_INPUT', `printdesk batch is sending from this computer (process ${others.join(', ')}). Let it finish, then move your work: an order it is sending must not be moved halfway.`);
    }
    return team().withTeamStore(target, async (store) => {
      const local = deps.localOrders();
      // Nothing leaves this computer's outbox while its orders move: each is moved as sent, or as waiting.
      local?.outbox.pause();
      try {
        await local?.outbox.settled();
        const here = local?.store ?? (await createOrdersStore(sqliteSql(deps.db), undefined, deps.identity));
        const note = `Moved to the team store at ${store.where}, whose outbox sends it: held here, so that it is sent once`;
        const report = await moveLocalWork({
          from: here.sql,
          to: store,
          account,
          movedNote: `Moved from ${deps.identity.name}’s own store`,
          actor: deps.identity.actor(),
          holdHere: async (ids) => {
            let held = 0;
            for (const id of ids) {
              const draft = await here.transition(id, ['queued'], 'queued', { held: true, note });
              if (!draft) continue;
              held++;
              if (local) deps.onDraft(draft);
            }
            return held;
          },
        });
        return { where: store.where, ...report };
      } finally {
        if (local && !deps.workingOffline()) local.outbox.resume();
      }
    });
  }

  /** The account's orders this computer's own Outbox still has to send: a switch to a team store leaves them waiting. */
  async function waitingHere(): Promise<number> {
    const account = deps.account();
    if (!account) return 0;
    const row = await sqliteSql(deps.db)
      .get<{ n: number }>("SELECT COUNT(*) AS n FROM drafts WHERE account = ? AND state IN ('queued', 'sending') AND held = 0", [account])
      // No drafts table: this computer's store was never used for them.
      .catch(() => undefined);
    return Number(row?.n ?? 0);
  }

  return {
    'team:get': async () => ({ ...(await team().state()), waitingHere: await waitingHere() }),
    'team:test': (input) => team().test(input),
    'team:use': (choice) => team().use(choice),
    'team:moveLocalWork': ({ target }) => move(target),
  };
}
