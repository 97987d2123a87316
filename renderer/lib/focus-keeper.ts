// A control the user pressed may go away with what it did: a banner's "Work online", a button replaced by
// the list it loaded, a dialog's button whose opener is gone. The browser then puts the focus on the page's
// body, and the next Tab starts again at the top of the window. This puts it on the view instead, so that
// Tab goes on from where the user was working.

/** Puts the focus on `fallback()` when the element in `within` that had it leaves the page; returns a function that stops it. */
export function keepFocus(within: HTMLElement, fallback: () => HTMLElement | null | undefined): () => void {
  let last: HTMLElement | null = null;
  const remember = (event: FocusEvent) => {
    if (event.target instanceof HTMLElement) last = event.target;
  };
  // Removing the focused element fires no focus event: the removals are watched instead.
  const observer = new MutationObserver(() => {
    if (!last || last.isConnected || document.activeElement !== document.body) return;
    last = null;
    fallback()?.focus({ preventScroll: true });
  });
  document.addEventListener('focusin', remember);
  observer.observe(within, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    document.removeEventListener('focusin', remember);
  };
}
