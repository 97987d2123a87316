import type { ConnectivityState, OfflineReason } from '../../contract/channels.ts';

export interface ConnectivityDeps {
  /** true when the service answers at all */
  probe: () => Promise<boolean>;
  onChange: (state: ConnectivityState) => void;
  /** why the service cannot be reached, asked when it cannot: the embedded sandbox may have stopped */
  whyUnreachable?: () => Exclude<OfflineReason, 'working-offline'>;
  intervalMs?: number;
}

export type Connectivity = ReturnType<typeof createConnectivity>;

/**
 * Online or not, as the service's answers tell it, and why not. Once a call cannot reach the service, a
 * light probe runs every few seconds, so the app notices the service is back without the user acting.
 * "Work offline" holds it offline on purpose: no probe runs, and what calls report is not listened to.
 */
export function createConnectivity(deps: ConnectivityDeps) {
  const { probe, onChange, whyUnreachable = () => 'unreachable', intervalMs = 5_000 } = deps;
  let reachable = true;
  let held = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  /** After stop: a probe or call still on its way must not act on a host that is closing its database. */
  let stopped = false;
  let checking = false;
  let last: ConnectivityState = { online: true, reason: null };

  function state(): ConnectivityState {
    if (held) return { online: false, reason: 'working-offline' };
    return reachable ? { online: true, reason: null } : { online: false, reason: whyUnreachable() };
  }

  /** Tells the app when what it shows changed: online, offline, or offline for another reason. */
  function announce() {
    const now = state();
    if (now.online === last.online && now.reason === last.reason) return;
    last = now;
    onChange(now);
  }

  function probeLater(on: boolean) {
    if (on && !timer) {
      timer = setInterval(() => void probe().then((ok) => ok && report(true), () => undefined), intervalMs);
      timer.unref?.();
    }
    if (!on && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  /**
   * What a call learnt. With `confirm`, a failure is first checked with the probe: an upload that cannot
   * get through while the service answers everything else (a proxy cutting large bodies) is the upload's
   * to report, and must not turn the whole app offline and back every few seconds.
   */
  function report(answered: boolean, confirm = false) {
    if (stopped || held) return;
    if (!answered && confirm && reachable) return void check();
    reachable = answered;
    probeLater(!reachable);
    announce();
  }

  function check() {
    if (checking) return;
    checking = true;
    void probe()
      .then((ok) => report(ok), () => report(false))
      .finally(() => (checking = false));
  }

  return {
    report,
    online: () => state().online,
    state,
    /**
     * Holds the app offline (Work offline), or lets it go: the service is then asked at once whether it
     * answers, and the app is online again only once it does.
     */
    hold(on: boolean) {
      if (stopped || on === held) return;
      held = on;
      if (held) {
        probeLater(false);
        announce();
      } else check();
    },
    stop: () => {
      stopped = true;
      probeLater(false);
    },
  };
}
