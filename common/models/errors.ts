/** Why a model file could not be read. Stable codes: the UI and the CLI branch on them, never on messages. */
export type ModelErrorCode =
  | 'EMPTY'
  | 'NOT_A_MODEL'
  | 'TRUNCATED'
  | 'BAD_COUNT'
  | 'BAD_SYNTAX'
  | 'NAN_COORDINATE'
  | 'INDEX_OUT_OF_RANGE'
  | 'ZIP_BOMB'
  | 'BAD_ZIP'
  | 'XML_ENTITY'
  | 'BAD_XML'
  | 'MISSING_PART'
  | 'TOO_LARGE'
  | 'UNSUPPORTED'
  | 'CANCELLED';

/** Where in the file the problem is; whichever the format can tell. */
export interface ModelErrorWhere {
  offset?: number;
  line?: number;
  /** 1-based, in bytes from the line's start: 3MF writers often put a whole model on one line. */
  column?: number;
  part?: string;
}

export class ModelParseError extends Error {
  readonly code: ModelErrorCode;
  readonly where: ModelErrorWhere;

  constructor(code: ModelErrorCode, message: string, where: ModelErrorWhere = {}) {
    super(message);
    this.name = 'ModelParseError';
    this.code = code;
    this.where = where;
  }

  /** Plain data, for postMessage and --json (class identity does not survive structured clone). */
  toJSON(): { code: ModelErrorCode; message: string; where: ModelErrorWhere } {
    return { code: this.code, message: this.message, where: this.where };
  }
}

export function isModelParseError(error: unknown): error is ModelParseError {
  return error instanceof ModelParseError;
}

/** 1-based line of a byte offset, counted only when an error needs it so that parsers never track lines. */
export function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  const end = Math.min(offset, bytes.length);
  for (let i = 0; i < end; i++) if (bytes[i] === 10) line++;
  return line;
}

/** 1-based column (in bytes) of a byte offset within its line. */
export function columnAt(bytes: Uint8Array, offset: number): number {
  const end = Math.min(offset, bytes.length);
  let start = end;
  while (start > 0 && bytes[start - 1] !== 10) start--;
  return end - start + 1;
}

/**
 * Counts in messages are read by people, in the app and `printdesk inspect` alike: "2,333", not "2333".
 * Whole numbers are grouped by hand: the first Intl formatter of a process loads ICU's number data, 36 ms
 * of every `printdesk inspect` when this module made one as it loaded. Anything else goes to one formatter,
 * made when first needed (toLocaleString builds one per call: tens of µs, more than reading a small model).
 */
let groupedFormat: Intl.NumberFormat | null = null;
export function grouped(n: number): string {
  if (Math.abs(n) < 1000) return String(n);
  if (Number.isSafeInteger(n)) return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  groupedFormat ??= new Intl.NumberFormat('en-US');
  return groupedFormat.format(n);
}
