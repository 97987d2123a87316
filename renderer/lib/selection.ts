// Selecting rows of a long list as file managers and mail clients do: a click selects one row, Ctrl/⌘-click
// adds or removes one, Shift-click takes the range from the last row clicked, the arrows move (Shift
// extends), Ctrl/⌘+A takes all. Plain functions of the rows' ids in the order shown.

export interface Selection {
  ids: ReadonlySet<string>;
  /** where a Shift range starts: the last row clicked or moved to without Shift */
  anchor: string | null;
  /** the row the keyboard is on */
  focus: string | null;
}

export const emptySelection = (): Selection => ({ ids: new Set(), anchor: null, focus: null });

function range(order: readonly string[], from: string | null, to: string): string[] {
  const end = order.indexOf(to);
  const start = from === null ? -1 : order.indexOf(from);
  if (start === -1) return [to];
  return order.slice(Math.min(start, end), Math.max(start, end) + 1);
}

/** A click on a row: `toggle` is Ctrl or ⌘ held, `extend` is Shift held. */
export function clickRow(selection: Selection, order: readonly string[], id: string, { toggle = false, extend = false } = {}): Selection {
  if (extend) {
    const spanned = range(order, selection.anchor, id);
    const ids = toggle ? new Set([...selection.ids, ...spanned]) : new Set(spanned);
    return { ids, anchor: selection.anchor ?? id, focus: id };
  }
  if (toggle) {
    const ids = new Set(selection.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id, focus: id };
  }
  return { ids: new Set([id]), anchor: id, focus: id };
}

/** The keyboard moves `by` rows (to the first or last past the ends); Shift extends the selection from the anchor. */
export function moveFocus(selection: Selection, order: readonly string[], by: number, extend = false): Selection {
  if (order.length === 0) return selection;
  const at = selection.focus === null ? -1 : order.indexOf(selection.focus);
  const index = at === -1 ? (by > 0 ? 0 : order.length - 1) : Math.max(0, Math.min(order.length - 1, at + by));
  const id = order[index];
  if (extend) return { ids: new Set(range(order, selection.anchor ?? selection.focus ?? id, id)), anchor: selection.anchor ?? selection.focus ?? id, focus: id };
  return { ids: new Set([id]), anchor: id, focus: id };
}

export const selectAll = (selection: Selection, order: readonly string[]): Selection => ({ ids: new Set(order), anchor: selection.anchor, focus: selection.focus ?? order[0] ?? null });

/** What stays selected once the list changes (a filter, a sort): the rows still shown. */
export function keepShown(selection: Selection, shown: ReadonlySet<string>): Selection {
  const ids = [...selection.ids].filter((id) => shown.has(id));
  const keep = (id: string | null) => (id !== null && shown.has(id) ? id : null);
  if (ids.length === selection.ids.size && keep(selection.focus) === selection.focus && keep(selection.anchor) === selection.anchor) return selection;
  return { ids: new Set(ids), anchor: keep(selection.anchor), focus: keep(selection.focus) };
}
