// A form sent with something wrong takes the user to it: the first field marked invalid, or else the first
// message that is not a field's (shipping, models), which takes the focus itself so that it is read out.
import { tick } from 'svelte';

/** Scrolls to the first problem in `form` once the page shows it, and puts the focus there. */
export async function focusFirstProblem(form: HTMLElement | undefined | null): Promise<void> {
  await tick();
  const first = form?.querySelector<HTMLElement>('[aria-invalid="true"], .error');
  if (!first) return;
  first.scrollIntoView({ block: 'center' });
  if (!(first instanceof HTMLInputElement || first instanceof HTMLSelectElement || first instanceof HTMLTextAreaElement)) first.tabIndex = -1;
  first.focus({ preventScroll: true });
}
