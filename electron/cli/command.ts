// What every `printdesk` subcommand implements; kept apart so commands and the dispatcher do not import each other.

export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Resolves to the process exit code: 0 ok, 1 some input failed, 2 usage error. */
  run(args: string[], io: CommandIo): Promise<number>;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
