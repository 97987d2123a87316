import type { KeyValueStore } from './preferences.ts';

/** A KeyValueStore for tests and throwaway hosts. */
export function createMemoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
  const data = new Map(Object.entries(initial));
  return {
    get: (key) => data.get(key),
    set: (key, value) => void data.set(key, value),
    delete: (key) => void data.delete(key),
  };
}
