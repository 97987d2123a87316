import type { AppError, SessionState } from '../../../electron/contract/channels.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';

class SessionStore {
  current = $state<SessionState | null>(null);
  busy = $state(false);
  error = $state<AppError | null>(null);

  /** How many sessions ended here (signed out, or ended by the host): a form closed just before can tell. */
  ended = 0;

  get signedIn() {
    return this.current?.status === 'signed-in';
  }

  #set(state: SessionState) {
    if (this.signedIn && state.status !== 'signed-in') this.ended++;
    this.current = state;
  }

  constructor() {
    // The host ends a session on its own when a refresh fails; follow it.
    printdesk.on('session:changed', (state) => this.#set(state));
  }

  load = async () => {
    this.current = unwrap(await printdesk.session.get());
  };

  signIn = async (email: string, password: string) => {
    this.busy = true;
    this.error = null;
    try {
      this.current = unwrap(await printdesk.session.signIn({ email, password }));
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.busy = false;
    }
  };

  signOut = async () => {
    this.#set(unwrap(await printdesk.session.signOut()));
  };

  clearError = () => {
    this.error = null;
  };
}

export const session = new SessionStore();
