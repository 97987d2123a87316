/** Dates in the user's locale; the service speaks UTC ISO 8601. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDay(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
}

/** Cents as money in the user's locale. */
export function formatMoney(cents: number, currency = 'EUR'): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** A delivery window as "Tue 24 Nov – Thu 26 Nov". */
export function formatWindow(min: string | null, max: string | null): string {
  if (!min && !max) return '—';
  if (!min || !max || formatDay(min) === formatDay(max)) return formatDay(min ?? max);
  return `${formatDay(min)} – ${formatDay(max)}`;
}
