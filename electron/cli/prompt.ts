// A question on the terminal. A hidden answer (a password) is not echoed: readline's output goes through
// a stream that drops what it is given while the answer is typed.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export type Ask = (question: string, options?: { hidden?: boolean }) => Promise<string>;

/** Ctrl+C at a question, or its input ended (Ctrl+D, a closed pipe) with no answer. */
export class PromptCancelled extends Error {
  readonly endOfInput: boolean;
  constructor(endOfInput: boolean) {
    super(endOfInput ? 'No answer' : 'Cancelled');
    this.endOfInput = endOfInput;
  }
}

/** Asks on this process's terminal; undefined when stdin or stderr is not one (a script, a pipe, CI). */
export function terminalPrompt(): Ask | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return (question, { hidden = false } = {}) =>
    new Promise((resolve, reject) => {
      let muted = false;
      const output = new Writable({
        write(chunk, _encoding, done) {
          if (!muted) process.stderr.write(chunk);
          done();
        },
      });
      // No history: a typed password must not be one arrow key away at the next question.
      const lines = createInterface({ input: process.stdin, output, terminal: true, historySize: 0 });
      lines.on('SIGINT', () => {
        process.stderr.write('\n');
        reject(new PromptCancelled(false));
        lines.close();
      });
      // Ctrl+D (end of input) closes the interface without an answer; after an answer this is a no-op.
      lines.on('close', () => reject(new PromptCancelled(true)));
      lines.question(question, (answer) => {
        if (hidden) process.stderr.write('\n');
        // Not trimmed: a password may begin or end with a space.
        resolve(answer);
        lines.close();
      });
      // The question is written by now; from here on only the typed answer would be echoed.
      muted = hidden;
    });
}
