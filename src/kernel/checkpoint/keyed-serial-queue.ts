/** Runs async tasks one at a time per key; tasks on different keys run independently. */
export interface KeyedSerialQueue {
  /** Runs `task` after every task queued earlier on `key` has settled, and resolves with its outcome. */
  run<T>(key: string, task: () => Promise<T> | T): Promise<T>;
}

/**
 * Creates a per-key promise chain. Checkpointers use it so concurrent appends to one session read the head and
 * write in turn, never interleaved. A failed task does not block the ones after it.
 */
export function keyedSerialQueue(): KeyedSerialQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T> | T): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      // Forget idle keys so a long-lived checkpointer does not keep one entry per session ever touched.
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
