import { printdesk, unwrap } from '../bridge.ts';

class ConnectivityStore {
  online = $state(true);

  constructor() {
    printdesk.on('connectivity:changed', ({ online }) => {
      this.online = online;
    });
  }

  load = async () => {
    this.online = unwrap(await printdesk.connectivity.get()).online;
  };
}

export const connectivity = new ConnectivityStore();
