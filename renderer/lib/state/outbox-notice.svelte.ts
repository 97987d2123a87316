// "3 orders placed", once the outbox has sent what waited for the service. On the desktop the OS says it
// (main.ts gives the host Electron's Notification); in browser mode the page does: a Web Notification when
// the browser allows them (asked when the user switches notifications on in Settings), else a note in
// the page itself.
import { emptiedWords } from '../../../common/orders/outbox-words.ts';
import { printdesk } from '../bridge.ts';
import { appState } from './app.svelte.ts';
import { preferences } from './preferences.svelte.ts';

/** How long the note stays unless dismissed. */
const SHOWN_MS = 12_000;

class OutboxNotice {
  shown = $state<{ title: string; body: string; tone: 'ok' | 'warn' } | null>(null);
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    printdesk.on('outbox:emptied', (summary) => {
      if (!preferences.settings.notifications || appState.info?.mode !== 'browser') return;
      const words = emptiedWords(summary);
      if (pageNotifications() === 'granted') new Notification(words.title, { body: words.body, tag: 'printdesk-outbox' });
      else this.show({ ...words, tone: summary.placed > 0 ? 'ok' : 'warn' });
    });
  }

  private show(words: { title: string; body: string; tone: 'ok' | 'warn' }) {
    this.shown = words;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.dismiss, SHOWN_MS);
  }

  dismiss = () => {
    clearTimeout(this.timer);
    this.shown = null;
  };
}

/** Whether the browser shows this page's notifications: granted, denied, or not asked yet ('default'); 'none' without the API. */
export function pageNotifications(): NotificationPermission | 'none' {
  return typeof Notification === 'undefined' ? 'none' : Notification.permission;
}

/** Asks the browser (after a click: browsers ask only then) to show this page's notifications. */
export async function askForPageNotifications(): Promise<NotificationPermission | 'none'> {
  if (pageNotifications() !== 'default') return pageNotifications();
  return Notification.requestPermission();
}

export const outboxNotice = new OutboxNotice();
