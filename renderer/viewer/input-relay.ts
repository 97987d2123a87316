// Input for a stage drawn in a worker. The page keeps the canvas (its placeholder) and everything the
// browser does with it: focus, pointer capture, holding back the page's own scrolling. What the camera
// needs of each event crosses over as plain data, and in the worker an InputSurface stands in for the
// canvas: OrbitControls and the stage listen to it as they would to the element.
import { isViewKey } from './view-keys.ts';

/** The fields of pointer, wheel and key events that OrbitControls and the stage read. */
export interface RelayedEvent {
  type: string;
  pointerId: number;
  pointerType: string;
  button: number;
  buttons: number;
  clientX: number;
  clientY: number;
  pageX: number;
  pageY: number;
  deltaX: number;
  deltaY: number;
  deltaMode: number;
  key: string;
  code: string;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

function relayed(event: Event): RelayedEvent {
  const e = event as Partial<PointerEvent & WheelEvent & KeyboardEvent>;
  return {
    type: event.type,
    pointerId: e.pointerId ?? 0,
    pointerType: e.pointerType ?? 'mouse',
    button: e.button ?? 0,
    buttons: e.buttons ?? 0,
    clientX: e.clientX ?? 0,
    clientY: e.clientY ?? 0,
    pageX: e.pageX ?? 0,
    pageY: e.pageY ?? 0,
    deltaX: e.deltaX ?? 0,
    deltaY: e.deltaY ?? 0,
    deltaMode: e.deltaMode ?? 0,
    key: e.key ?? '',
    code: e.code ?? '',
    ctrlKey: e.ctrlKey ?? false,
    shiftKey: e.shiftKey ?? false,
    altKey: e.altKey ?? false,
    metaKey: e.metaKey ?? false,
  };
}

/**
 * Forwards the canvas's input to `send` until the returned function is called. Moves are sent only while
 * a pointer is down: hovering says nothing to the camera.
 */
export function relayInput(canvas: HTMLCanvasElement, send: (event: RelayedEvent) => void): () => void {
  const down = new Set<number>();
  const listeners: Record<string, (event: Event) => void> = {
    pointerdown: (event) => {
      const { pointerId } = event as PointerEvent;
      canvas.setPointerCapture(pointerId);
      down.add(pointerId);
      send(relayed(event));
    },
    pointermove: (event) => {
      if (down.has((event as PointerEvent).pointerId)) send(relayed(event));
    },
    pointerup: (event) => {
      if (down.delete((event as PointerEvent).pointerId)) send(relayed(event));
    },
    pointercancel: (event) => {
      if (down.delete((event as PointerEvent).pointerId)) send(relayed(event));
    },
    wheel: (event) => {
      // The page must not scroll while the wheel zooms the view.
      event.preventDefault();
      send(relayed(event));
    },
    contextmenu: (event) => event.preventDefault(),
    keydown: (event) => {
      if (isViewKey(event as KeyboardEvent)) event.preventDefault();
      send(relayed(event));
    },
    keyup: (event) => send(relayed(event)),
  };
  for (const [type, listener] of Object.entries(listeners)) canvas.addEventListener(type, listener, { passive: type !== 'wheel' && type !== 'keydown' && type !== 'contextmenu' });
  return () => {
    for (const [type, listener] of Object.entries(listeners)) canvas.removeEventListener(type, listener);
  };
}

type Listener = (event: RelayedEvent & { preventDefault(): void; stopPropagation(): void }) => void;

/**
 * What OrbitControls and the stage need of an element, in a worker: listeners, a size, and pointer
 * capture (done by the page already). It is its own `ownerDocument`, since the page sends the moves of a
 * captured pointer to the canvas.
 */
export class InputSurface {
  readonly style: Record<string, string> = {};
  private readonly listeners = new Map<string, Set<Listener>>();
  private width = 0;
  private height = 0;

  get ownerDocument(): InputSurface {
    return this;
  }

  get clientWidth(): number {
    return this.width;
  }

  get clientHeight(): number {
    return this.height;
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
  }

  getBoundingClientRect(): { left: number; top: number; right: number; bottom: number; width: number; height: number; x: number; y: number } {
    return { left: 0, top: 0, right: this.width, bottom: this.height, width: this.width, height: this.height, x: 0, y: 0 };
  }

  getRootNode(): InputSurface {
    return this;
  }

  setPointerCapture(): void {}

  releasePointerCapture(): void {}

  hasPointerCapture(): boolean {
    return false;
  }

  focus(): void {}

  addEventListener(type: string, listener: Listener): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }

  removeEventListener(type: string, listener: Listener): void {
    this.listeners.get(type)?.delete(listener);
  }

  dispatch(event: RelayedEvent): void {
    const delivered = { ...event, target: this, preventDefault() {}, stopPropagation() {} };
    for (const listener of [...(this.listeners.get(event.type) ?? [])]) listener(delivered);
  }
}
