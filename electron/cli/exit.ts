// How a `printdesk` command ends: its exit code and the line it leaves on stderr.

export const EXIT = { ok: 0, partial: 1, invalid: 2, unreachable: 3, interrupted: 130 } as const;

export class Exit extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}
