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

  let checking = false;

  /**
   * What a call learnt. With `confirm`, a failure is first checked with the probe: an upload that cannot
   * get through while the service answers everything else (a proxy cutting large bodies) is the upload's
   * to report, and must not turn the whole app offline and back every few seconds.
   */
  function report(reachable: boolean, confirm = false) {
    if (stopped || reachable === online) return;
    if (!reachable && confirm) return void check();
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

  function check() {
    if (checking) return;
    checking = true;
    void probe()
      .then((ok) => ok || report(false), () => report(false))
      .finally(() => (checking = false));
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
