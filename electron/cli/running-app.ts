// The CLI beside the app on one data folder: both work through the same database, whose outbox sends each
// order once whichever of them queued it, so the CLI goes ahead and only says so.
import { runningInstance } from '../services/instance/lock.ts';

export function noteRunningApp(userDataDir: string, stderr: { write(text: string): unknown }): void {
  const running = runningInstance(userDataDir);
  if (!running) return;
  const app = running.mode === 'electron' ? 'the desktop app' : `browser mode${running.origin ? ` at ${running.origin}` : ''}`;
  stderr.write(`PrintDesk is running on this data folder (${app}, process ${running.pid}). Both send through its one outbox, so no order is placed twice.\n`);
}
