// The globals common/ may use: those the renderer (the DOM) and the host (Node) both have, declared as far as
// common/ uses them. Only tsconfig.common.json reads this file; each runtime's own check uses its full types.

interface TextDecoder {
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}
declare const TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};

interface URL {
  hash: string;
  hostname: string;
  origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  username: string;
}
declare const URL: {
  prototype: URL;
  new (url: string, base?: string | URL): URL;
};

/** Timers: a number in the DOM, an object in Node; common/ only hands the handle back to clearTimeout. */
declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
