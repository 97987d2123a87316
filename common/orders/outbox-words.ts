// What the outbox says once it has sent what waited for the service: the same words in the OS
// notification (desktop) and the page's (browser mode).

export interface EmptiedSummary {
  placed: number;
  needAttention: number;
}

const orders = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'order' : 'orders'}`;

/** "3 orders placed", with what needs the user said after it. */
export function emptiedWords(summary: EmptiedSummary): { title: string; body: string } {
  const { placed, needAttention } = summary;
  const title = placed > 0 ? `${orders(placed)} placed` : `${orders(needAttention)} ${needAttention === 1 ? 'needs' : 'need'} your attention`;
  const sent = placed > 0 ? 'The outbox sent what waited while the service could not be reached.' : 'The outbox could not send what waited while the service could not be reached.';
  const attention = placed > 0 && needAttention > 0 ? ` ${orders(needAttention)} ${needAttention === 1 ? 'needs' : 'need'} your attention in Orders.` : needAttention > 0 ? ' See Orders.' : '';
  return { title, body: `${sent}${attention}` };
}
