// The keys of a search box with suggestions under it (a country, a model): arrows move through them, Enter
// takes the one shown active, Escape closes the list. The box's own keys (letters, Tab) are left alone.

export interface SuggestionList {
  open: boolean;
  active: number;
  count: number;
  take: (index: number) => void;
  close: () => void;
}

/** The active index after the key, or null when the key is not the list's (and nothing was prevented). */
export function suggestionKey(event: KeyboardEvent, list: SuggestionList): number | null {
  let active = list.active;
  if (event.key === 'ArrowDown') active = Math.min(list.active + 1, list.count - 1);
  else if (event.key === 'ArrowUp') active = Math.max(list.active - 1, 0);
  else if (event.key === 'Enter' && list.open && list.active < list.count) list.take(list.active);
  else if (event.key === 'Escape') list.close();
  else return null;
  event.preventDefault();
  return active;
}

/**
 * Closes the list a moment after its box loses the focus, so that a click on a suggestion lands first;
 * but not if the box has the focus again by then. Focus that leaves and comes back within the moment (a
 * cell edited next to it, then the box clicked again) otherwise closed the list under the user's typing,
 * and no suggestion showed. A window left for another app closes it too (its box stays the page's active
 * element then).
 */
export function closeAfterBlur(event: FocusEvent, close: () => void, ms = 150): void {
  const box = event.currentTarget;
  setTimeout(() => {
    if (document.activeElement !== box || !document.hasFocus()) close();
  }, ms);
}
