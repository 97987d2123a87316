import type { Question } from './state/confirmation.svelte.ts';

/** What deleting models asks first, from the library's selection or a model's own page (`name` given). */
export function deleteModelsQuestion(count: number, name?: string): Question {
  const what = count === 1 ? 'this model' : `these ${count} models`;
  const body = `Deleting ${name ?? what} removes ${count === 1 ? 'it' : 'them'} from the project at the service. Orders already placed are not affected. This cannot be undone.`;
  return { title: `Delete ${what}?`, body, confirmLabel: 'Delete', cancelLabel: count === 1 ? 'Keep it' : 'Keep them' };
}
