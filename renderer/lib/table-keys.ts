// Moving through a table of rows from the keyboard, as in a file manager: Up and Down (Home, End) to the
// same control of another row, Left and Right between a row's controls. The table is one stop for Tab:
// only the row last moved to is in the tab order (see tabStopRow), so Tab leaves the table rather than
// walking every row's box and name.

/** The controls of a row, left to right, that the arrows move between. */
const CONTROLS = 'input[type="checkbox"], [data-row-control]';

/**
 * Handles an arrow, Home or End pressed on a control of a row of `body` (rows are `tr[data-row-id]`);
 * returns the id of the row moved to, or null when the key is not one of these.
 */
export function moveInTable(event: KeyboardEvent, body: HTMLElement): string | null {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const from = event.target as HTMLElement;
  const row = from.closest<HTMLElement>('tr[data-row-id]');
  if (!row || !body.contains(row)) return null;
  const rows = [...body.querySelectorAll<HTMLElement>('tr[data-row-id]')];
  const controls = (of: HTMLElement) => [...of.querySelectorAll<HTMLElement>(CONTROLS)];
  const column = Math.max(0, controls(row).indexOf(from));
  const at = rows.indexOf(row);
  const to =
    event.key === 'ArrowDown' ? Math.min(rows.length - 1, at + 1)
    : event.key === 'ArrowUp' ? Math.max(0, at - 1)
    : event.key === 'Home' ? 0
    : event.key === 'End' ? rows.length - 1
    : at;
  const across = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
  if (to === at && across === 0 && !['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return null;
  event.preventDefault();
  const target = controls(rows[to]);
  const control = target[Math.min(target.length - 1, Math.max(0, column + across))];
  control?.focus();
  control?.scrollIntoView({ block: 'nearest' });
  return rows[to].dataset.rowId ?? null;
}

/** The row in the tab order: the one last moved to while it is listed, or else the first. */
export const tabStopRow = (current: string | null, ids: readonly string[]): string | null => (current !== null && ids.includes(current) ? current : (ids[0] ?? null));
