export interface ConnectivityDeps {
  /** true when the service answers at all */
  probe: () => Promise<boolean>;
  onChange: (online: boolean) => void;
  intervalMs?: number;
}

export type Connectivity = ReturnType<typeof createConnectivity>;

/**
 * Online or not, as the service's answers tell it. Once a call cannot reach the service, a light
 * probe runs every few seconds, so the app notices the service is back without the user acting.
 */
export function createConnectivity(deps: ConnectivityDeps) {
  const { probe, onChange, intervalMs = 5_000 } = deps;
  let online = true;
  let timer: ReturnType<typeof setInterval> | null = null;
  /** After stop: a probe or call still on its way must not act on a host that is closing its database. */
  let stopped = false;

  function report(reachable: boolean) {
    if (stopped || reachable === online) return;
    online = reachable;
    if (online && timer) {
      clearInterval(timer);
      timer = null;
    }
    if (!online && !timer) {
      timer = setInterval(() => void probe().then((ok) => ok && report(true), () => undefined), intervalMs);
      timer.unref?.();
    }
    onChange(online);
  }

  return {
    report,
    online: () => online,
    stop: () => {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
