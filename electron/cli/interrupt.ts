// Ctrl+C in `printdesk batch`: what the command was doing is said, what is on its way is stopped at once
// (an order in flight carries its reference, so the next run settles it without placing it twice), and
// the command ends with 130. A second Ctrl+C ends it on the spot.
import { EXIT } from './exit.ts';

export type Phase = 'starting' | 'signing in' | 'checking the file' | 'sending';

export interface Interrupt {
  /** what the command is doing, for the line Ctrl+C leaves */
  phase: Phase;
  readonly interrupted: boolean;
  /** resolves at Ctrl+C */
  readonly promise: Promise<'interrupted'>;
  /** what to stop at Ctrl+C (the requests on their way) */
  onInterrupt(stop: () => void): void;
  dispose(): void;
}

export function watchInterrupt(): Interrupt {
  let interrupted = false;
  let resolve: (value: 'interrupted') => void = () => undefined;
  const promise = new Promise<'interrupted'>((done) => (resolve = done));
  const stops: Array<() => void> = [];
  const handler = () => {
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    for (const stop of stops) stop();
    resolve('interrupted');
  };
  process.on('SIGINT', handler);
  return {
    phase: 'starting',
    get interrupted() {
      return interrupted;
    },
    promise,
    onInterrupt: (stop) => void stops.push(stop),
    dispose: () => void process.off('SIGINT', handler),
  };
}

/** The line Ctrl+C leaves before anything was sent. */
export function interruptedBefore(phase: Phase): string {
  return `Interrupted while ${phase === 'sending' ? 'starting to send' : phase}: nothing was sent. Run the same command again to start over.`;
}
