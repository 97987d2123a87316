// A control the user pressed may go away with what it did: a banner's "Work online", a button replaced by
// the list it loaded, a dialog's button whose opener is gone. Or it is disabled while its work runs ("Test
// connection"). The browser then puts the focus on the page's body, and the next Tab starts again at the
// top of the window. This puts it on the view instead, or back on the control once it is enabled again, so
// that Tab goes on from where the user was working.

const disabled = (element: HTMLElement) => 'disabled' in element && element.disabled === true;

/** Puts the focus back where it belongs when the element in `within` that had it goes away or is disabled; returns a function that stops it. */
export function keepFocus(within: HTMLElement, fallback: () => HTMLElement | null | undefined): () => void {
  let last: HTMLElement | null = null;
  /** The control that lost the focus by being disabled: it takes it back once enabled, if nothing else took it. */
  let waiting: HTMLElement | null = null;
  const remember = (event: FocusEvent) => {
    if (event.target instanceof HTMLElement) [last, waiting] = [event.target, null];
  };
  // Removing or disabling the focused element fires no event to count on: the changes are watched instead.
  // A disabled control keeps the focus until the browser next lays out the page, so it is marked as it is
  // disabled, whether or not the body has the focus yet.
  const observer = new MutationObserver(() => {
    if (!last) return;
    if (last.isConnected && disabled(last)) waiting = last;
    if (document.activeElement !== document.body) return;
    if (!last.isConnected) {
      [last, waiting] = [null, null];
      fallback()?.focus({ preventScroll: true });
    } else if (waiting === last && !disabled(last)) {
      waiting = null;
      last.focus({ preventScroll: true });
    }
  });
  document.addEventListener('focusin', remember);
  observer.observe(within, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  return () => {
    observer.disconnect();
    document.removeEventListener('focusin', remember);
  };
}
