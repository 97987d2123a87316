import type { OfflineReason } from '../../../electron/contract/channels.ts';
import { printdesk, unwrap } from '../bridge.ts';

class ConnectivityStore {
  online = $state(true);
  /** why not, while offline: the service does not answer, the embedded sandbox stopped, or the user works offline */
  reason = $state<OfflineReason | null>(null);

  constructor() {
    printdesk.on('connectivity:changed', (state) => {
      this.online = state.online;
      this.reason = state.reason;
    });
  }

  load = async () => {
    const state = unwrap(await printdesk.connectivity.get());
    this.online = state.online;
    this.reason = state.reason;
  };
}

export const connectivity = new ConnectivityStore();
