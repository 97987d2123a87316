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
  const needs = `${orders(needAttention)} ${needAttention === 1 ? 'needs' : 'need'} your attention`;
  if (placed === 0) return { title: needs, body: `${needAttention === 1 ? 'It' : 'They'} waited in the Outbox and ${needAttention === 1 ? 'was' : 'were'} not placed: see Orders.` };
  const attention = needAttention > 0 ? ` ${needs} in Orders.` : '';
  return { title: `${orders(placed)} placed`, body: `The Outbox sent the orders that waited for the service.${attention}` };
}
