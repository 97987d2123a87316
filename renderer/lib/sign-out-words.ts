// What signing out leaves behind, said before the user signs out: the account's orders still to be sent,
// in the open project and in the others (an outbox is the account's, not a project's), and who sends them.
import type { OutboxWaiting } from '../../electron/contract/channels.ts';
import { counted } from './format.ts';

/** Where the orders wait, as counted by the host in one query (so the parts add up). */
function whereTheyWait({ orders, projects, here }: OutboxWaiting, projectOpen: boolean): string {
  if (!projectOpen) return projects === 1 ? 'in the outbox' : `in the outbox, in ${projects.toLocaleString('en-US')} projects`;
  const elsewhere = orders - here;
  if (elsewhere === 0) return 'in the outbox';
  const others = projects - (here > 0 ? 1 : 0);
  const inOthers = others === 1 ? 'another project' : `${others.toLocaleString('en-US')} other projects`;
  return elsewhere === orders ? `in the outbox of ${inOthers}` : `in the outbox, ${elsewhere.toLocaleString('en-US')} of them in ${inOthers}`;
}

/** The question's body, or null when nothing waits. */
export function signOutWarning(waiting: OutboxWaiting, projectOpen: boolean, email: string): string | null {
  if (waiting.orders === 0) return null;
  const one = waiting.orders === 1;
  const stay = waiting.shared
    ? `${one ? 'It stays' : 'They stay'} in the team’s store and ${one ? 'is' : 'are'} sent by whichever of the shop’s workstations is signed in as ${email}`
    : `${one ? 'It stays' : 'They stay'} on this computer and ${one ? 'is' : 'are'} sent when ${email} signs in again`;
  return `${counted(waiting.orders, 'order')} ${one ? 'waits' : 'wait'} ${whereTheyWait(waiting, projectOpen)}. ${stay}, never under another account.`;
}
