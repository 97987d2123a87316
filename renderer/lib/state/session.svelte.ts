import type { AppError, SessionState } from '../../../electron/contract.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';

class SessionStore {
  current = $state<SessionState | null>(null);
  busy = $state(false);
  error = $state<AppError | null>(null);

  get signedIn() {
    return this.current?.status === 'signed-in';
  }

  constructor() {
    // The host ends a session on its own when a refresh fails; follow it.
    printdesk.on('session:changed', (state) => {
      this.current = state;
    });
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
    this.current = unwrap(await printdesk.session.signOut());
  };

  clearError = () => {
    this.error = null;
  };
}

export const session = new SessionStore();
