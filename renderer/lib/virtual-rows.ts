// Which rows of a long list of fixed-height rows to draw: those in view, and a few either side so that a
// scroll of a few rows shows drawn rows at once. Ten thousand orders are as quick to show as forty.

export interface RowWindow {
  /** the first row drawn */
  start: number;
  /** one past the last row drawn */
  end: number;
}

export function rowWindow(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 8): RowWindow {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const shown = Math.ceil(Math.max(viewportHeight, rowHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(first, count) - overscan);
  const end = Math.min(count, first + shown + overscan);
  return { start, end: Math.max(start, end) };
}

/** The scroll position that brings row `index` into view with the least movement (unchanged when it is in view). */
export function scrollToRow(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return scrollTop;
}
