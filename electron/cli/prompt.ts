// A question on the terminal. A hidden answer (a password) is not echoed: readline's output goes through
// a stream that drops what it is given while the answer is typed.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export type Ask = (question: string, options?: { hidden?: boolean }) => Promise<string>;

export class PromptCancelled extends Error {}

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
      const lines = createInterface({ input: process.stdin, output, terminal: true });
      lines.on('SIGINT', () => {
        lines.close();
        process.stderr.write('\n');
        reject(new PromptCancelled('Cancelled.'));
      });
      lines.question(question, (answer) => {
        lines.close();
        if (hidden) process.stderr.write('\n');
        resolve(answer.trim());
      });
      // The question is written by now; from here on only the typed answer would be echoed.
      muted = hidden;
    });
}
