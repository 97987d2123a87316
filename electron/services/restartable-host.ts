// The host a front door talks to, whose services can be built again on another store (Settings → Team) while
// the window, the browser-mode bridge and the CLI keep the one object they were given. While the services are
// rebuilt, calls wait for the new ones; events come from whichever is current.
import { EventEmitter } from 'node:events';
import { eventNames, type EventName, type EventPayload } from '../contract/channels.ts';
import type { Host } from './host.ts';

export interface RestartableHost extends Host {
  /**
   * Stops the current services and puts those `build` makes in their place. Calls made meanwhile wait for
   * them. Paths the user granted and files the OS handed over and not yet taken carry over.
   */
  replace(stopCurrent: () => Promise<void>, build: () => Promise<Host>): Promise<void>;
}

export function restartableHost(first: Host): RestartableHost {
  const emitter = new EventEmitter();
  // As many pages and windows as there are: each listens to every event.
  emitter.setMaxListeners(0);
  let current = first;
  let switching: Promise<void> | null = null;
  const granted = new Set<string>();

  const forward = (host: Host) =>
    eventNames.map((event) => host.subscribe(event, (payload) => emitter.emit(event, payload)));
  let unsubscribe = forward(current);

  async function settled(): Promise<Host> {
    while (switching) await switching.catch(() => undefined);
    return current;
  }

  return {
    async invoke(channel, input) {
      return (await settled()).invoke(channel, input);
    },
    subscribe<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
      emitter.on(event, listener);
      return () => void emitter.off(event, listener);
    },
    get ready() {
      return settled().then((host) => host.ready);
    },
    openFiles: (paths) => current.openFiles(paths),
    grantPaths(paths) {
      for (const path of paths) granted.add(path);
      current.grantPaths(paths);
    },
    uploadPathsInUse: () => current.uploadPathsInUse(),
    dispose: async () => (await settled()).dispose(),
    async replace(stopCurrent, build) {
      while (switching) await switching.catch(() => undefined);
      const previous = current;
      const run = (async () => {
        const opened = await previous.invoke('files:takeOpened', undefined);
        await stopCurrent();
        unsubscribe.forEach((off) => off());
        const next = await build();
        await next.ready;
        current = next;
        unsubscribe = forward(next);
        next.grantPaths([...granted]);
        if (opened.ok) next.openFiles(opened.value as string[]);
      })();
      switching = run;
      try {
        await run;
      } finally {
        switching = null;
      }
    },
  };
}
