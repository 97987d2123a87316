// What a failure is, in words that are true: the service cannot be reached, the embedded sandbox stopped,
// the user works offline, was signed out, or the service refused. Each says what to do next.
import type { AppError } from '../../electron/contract/channels.ts';
import { inGroup } from '../../common/errors.ts';

export interface ErrorWords {
  title: string | undefined;
  /** what to do about it, after the message */
  advice: string | null;
  tone: 'warn' | 'danger';
  /** a button that undoes the cause (Work offline off) */
  action: 'work-online' | null;
}

export function errorWords(error: AppError): ErrorWords {
  const words = (title: string | undefined, advice: string | null, tone: ErrorWords['tone'] = 'danger', action: ErrorWords['action'] = null) => ({ title, advice, tone, action });
  if (error.details?.hostStopped === true) return words('PrintDesk has stopped', null);
  if (inGroup('unreachable', error.code)) {
    const reason = error.details?.reason;
    if (reason === 'working-offline') return words('You are working offline', 'Switch Work offline off to reach the service. Orders you place wait in the Outbox.', 'warn', 'work-online');
    // The embedded sandbox runs on this computer: the network has nothing to do with it.
    if (reason === 'sandbox-stopped') return words('The embedded sandbox stopped', 'Restart PrintDesk to start it again, or choose another service in Settings.', 'warn');
    const advice = 'Check your connection, or the service address in Settings. Drafts and orders placed meanwhile are kept, and the Outbox sends them when the service is back.';
    return words(error.code === 'TIMEOUT' ? 'The service is not answering' : 'The service cannot be reached', advice, 'warn');
  }
  if (inGroup('signedOut', error.code)) return words('You were signed out', 'Sign in again to go on; your drafts and queued orders are kept.');
  // The service was reached, and said no.
  if (inGroup('refused', error.code)) return words(error.code === 'NO_PERMISSION' ? 'The service refused: no access' : 'The service refused this', null);
  if (error.code === 'RATE_LIMITED') return words('Too many requests', null, 'warn');
  if (error.code === 'INTERNAL_ERROR') return words(error.details?.inApp === true ? 'Something went wrong in PrintDesk' : 'Something went wrong on the service', null);
  if (error.code === 'INVALID_RESPONSE') return words('The service answered in an unexpected way', null);
  return words(undefined, null);
}
