// Why the service is out of reach, as a clause for the sentences that say what is shown instead: a user
// who chose Work offline is not told that the service cannot be reached.
import type { OfflineReason } from '../../electron/contract/channels.ts';

/** "you are working offline", "the embedded sandbox has stopped", or "the service cannot be reached now". */
export function offlineClause(reason: OfflineReason | null): string {
  if (reason === 'working-offline') return 'you are working offline';
  if (reason === 'sandbox-stopped') return 'the embedded sandbox has stopped';
  return 'the service cannot be reached now';
}

/** When what waits in the Outbox goes: "when you work online again", … */
export function sentWhen(reason: OfflineReason | null): string {
  if (reason === 'working-offline') return 'when you work online again';
  if (reason === 'sandbox-stopped') return 'when the embedded sandbox runs again (restart PrintDesk)';
  return 'as soon as the service answers';
}
