/**
 * A Svelte action: calls `action` each time the element comes within 400px of view, so the next part of a
 * long list is ready before it is reached. Where IntersectionObserver is missing the element's own button
 * still works.
 */
export function whenSeen(element: HTMLElement, action: () => void) {
  if (typeof IntersectionObserver === 'undefined') return {};
  const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && action(), { rootMargin: '400px' });
  observer.observe(element);
  return { destroy: () => observer.disconnect() };
}
