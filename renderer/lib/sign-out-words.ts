// What signing out leaves behind, said before the user signs out: the account's orders still to be sent,
// in this project and in the others (an outbox is per account, not per project), and who sends them.
import type { OutboxWaiting } from '../../electron/contract/channels.ts';
import { counted } from './format.ts';

/** The question's body, or null when nothing waits. `here` is how many of the orders are in the open project. */
export function signOutWarning(waiting: OutboxWaiting, here: number, email: string): string | null {
  const { orders, projects, shared } = waiting;
  if (orders === 0) return null;
  const one = orders === 1;
  const elsewhere = orders - Math.min(here, orders);
  const otherProjects = Math.max(1, projects - (here > 0 ? 1 : 0));
  const inOthers = otherProjects === 1 ? 'another project' : `${otherProjects} other projects`;
  const where =
    elsewhere === 0 ? 'in the outbox'
    : elsewhere === orders ? `in the outbox of ${inOthers}`
    : `in the outbox, ${elsewhere.toLocaleString('en-US')} of them in ${inOthers}`;
  const stay = shared
    ? `${one ? 'It stays' : 'They stay'} in the team’s store and ${one ? 'is' : 'are'} sent by whichever of the shop’s workstations is signed in as ${email}`
    : `${one ? 'It stays' : 'They stay'} on this computer and ${one ? 'is' : 'are'} sent when ${email} signs in again`;
  return `${counted(orders, 'order')} ${one ? 'waits' : 'wait'} ${where}. ${stay}, never under another account.`;
}
