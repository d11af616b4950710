import type { SpillStore } from "./types.js";

/**
 * An in-memory {@link SpillStore}. Refs are `m1`, `m2`, … in put order, so the same sequence of puts gives the
 * same refs on every run and every workflow replay. Its contents live as long as the store object.
 */
export function memorySpillStore(): SpillStore {
  const blobs = new Map<string, string>();
  return {
    put(content) {
      const ref = `m${blobs.size + 1}`;
      blobs.set(ref, content);
      return ref;
    },
    get(ref) {
      return blobs.get(ref) ?? null;
    },
  };
}
