// Light or dark, as the user chose or as the system is: the page's colours follow `data-theme` on the
// root element (styles.css), and native controls follow `color-scheme`.
import type { Theme } from '../../electron/contract/schemas/preferences.ts';

export type Look = 'light' | 'dark';

const systemDark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

export const lookOf = (theme: Theme): Look => (theme === 'system' ? (systemDark() ? 'dark' : 'light') : theme);

export function applyLook(look: Look, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = look;
  root.style.colorScheme = look;
}

/** Calls back when the system switches between light and dark (for a theme that follows it). */
export function onSystemLookChange(listener: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia('(prefers-color-scheme: dark)');
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}
