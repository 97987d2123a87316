// One question at a time, asked by the ConfirmDialog that App mounts: an action that cannot be undone
// (cancelling an order at the service, deleting models or drafts), or one the user did not start (files
// the OS handed over), waits for the user's answer.

export interface Question {
  title: string;
  body: string;
  /** The confirming button's label: the action itself ("Cancel order"), never "OK". */
  confirmLabel: string;
  /** The other button's label (default "Keep it"). */
  cancelLabel?: string;
  /** How the confirming button looks: red for what cannot be undone (the default), blue otherwise. */
  tone?: 'danger' | 'primary';
}

class Confirmation {
  question = $state<Question | null>(null);
  #answer: ((confirmed: boolean) => void) | null = null;

  ask = (question: Question): Promise<boolean> => {
    this.#answer?.(false);
    this.question = question;
    return new Promise((resolve) => (this.#answer = resolve));
  };

  answer = (confirmed: boolean) => {
    this.#answer?.(confirmed);
    this.#answer = null;
    this.question = null;
  };
}

export const confirmation = new Confirmation();
