// An element's height, told whenever it changes, as `bind:clientHeight` does but without reading it at
// once: that read makes the browser lay the page out there and then (tens of milliseconds of the page's
// thread when the preview's tool row appears), where a ResizeObserver hears it after the next layout.
export function observedHeight(node: HTMLElement, set: (height: number) => void): { destroy(): void } {
  const observer = new ResizeObserver(([entry]) => set(entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height));
  observer.observe(node);
  return { destroy: () => observer.disconnect() };
}
