// V8 forgets a class's hidden class (its shape) in a full collection once no object of it is alive, and
// with it the compiled code of every method that reads the class's fields: the next file is then parsed
// by code that has to warm up again. A parser made of a class keeps one idle instance here for the
// module's life, so a file read after a collection runs at full speed from its first byte.

const kept: object[] = [];

/** Holds `instance` for good; returns it. */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
