// What a batch's send will cost, from each order's quoted shipping: the total, by method and by
// country, and the range of delivery windows. The app's confirmation and `printdesk batch --dry-run`
// say the same figures.
import type { BatchCosts, CostLine } from '../../electron/services/batch/schemas.ts';
import { shippingName } from '../orders/shipping-names.ts';

export type { BatchCosts, CostLine };

export interface CostedOrder {
  country: string;
  currency: string;
  method: { carrier: string; method: string; price: number; minDeliveryTime: string | null; maxDeliveryTime: string | null; estimatedDeliveryTime: string | null };
}

export function summariseCosts(orders: readonly CostedOrder[]): BatchCosts {
  const byMethod = new Map<string, CostLine>();
  const byCountry = new Map<string, CostLine>();
  let total = 0;
  let earliest: string | null = null;
  let latest: string | null = null;
  for (const { country, method } of orders) {
    total += method.price;
    add(byMethod, `${method.carrier} ${method.method}`, method.price, { carrier: method.carrier, method: method.method });
    add(byCountry, country.toUpperCase(), method.price);
    const from = method.minDeliveryTime ?? method.estimatedDeliveryTime;
    const to = method.maxDeliveryTime ?? method.estimatedDeliveryTime;
    if (from && (earliest === null || from < earliest)) earliest = from;
    if (to && (latest === null || to > latest)) latest = to;
  }
  const sorted = (lines: Map<string, CostLine>) => [...lines.values()].sort((a, b) => b.total - a.total || b.orders - a.orders || a.key.localeCompare(b.key));
  return { orders: orders.length, currency: orders[0]?.currency ?? 'EUR', total, byMethod: sorted(byMethod), byCountry: sorted(byCountry), earliest, latest };
}

function add(lines: Map<string, CostLine>, key: string, price: number, extra: Partial<CostLine> = {}) {
  const line = lines.get(key) ?? { key, ...extra, orders: 0, total: 0 };
  line.orders++;
  line.total += price;
  lines.set(key, line);
}

/** Cents in a currency, for a terminal: "€1,234.50". */
export function plainMoney(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

const plainDay = (iso: string) => new Date(iso).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The delivery windows of a batch in words: "Mon, Nov 30 – Fri, Dec 4". */
export function plainWindow(earliest: string | null, latest: string | null): string {
  if (!earliest && !latest) return 'no delivery dates given';
  if (!earliest || !latest || plainDay(earliest) === plainDay(latest)) return plainDay((earliest ?? latest) as string);
  return `${plainDay(earliest)} – ${plainDay(latest)}`;
}

/** The figures as lines for a terminal (the dry run, and a run before it sends). */
export function describeCosts(costs: BatchCosts, countryName: (code: string) => string = (code) => code): string[] {
  if (costs.orders === 0) return [];
  const money = (cents: number) => plainMoney(cents, costs.currency);
  const orders = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'order' : 'orders'}`;
  const lines = (list: readonly CostLine[], name: (line: CostLine) => string) =>
    [...list.slice(0, 8).map((l) => `    ${name(l)}: ${orders(l.orders)}, ${money(l.total)}`), ...(list.length > 8 ? [`    … and ${list.length - 8} more`] : [])];
  return [
    `Shipping: ${money(costs.total)} for ${orders(costs.orders)}; delivery ${plainWindow(costs.earliest, costs.latest)}`,
    '  By method:',
    ...lines(costs.byMethod, (l) => shippingName({ carrier: l.carrier ?? '', method: l.method ?? '' })),
    '  By country:',
    ...lines(costs.byCountry, (l) => countryName(l.key)),
  ];
}
