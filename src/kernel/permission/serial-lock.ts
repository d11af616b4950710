/** One place in a `SerialLock` queue. */
export interface LockSlot {
  /** Resolves when every earlier holder has released. */
  ready: Promise<void>;
  /** Gives the slot up; idempotent. Call it even when giving up before `ready` resolved. */
  release(): void;
}

/** A FIFO lock built as a promise chain: each slot is ready once the previous one is released. */
export interface SerialLock {
  acquire(): LockSlot;
}

/**
 * Creates a FIFO promise-chain lock. The permission gate uses it so concurrent `ask` calls prompt one at a time.
 * Releasing a slot early (an aborted waiter) never lets later slots overtake an earlier holder.
 */
export function serialLock(): SerialLock {
  let tail: Promise<void> = Promise.resolve();
  return {
    acquire() {
      const previous = tail;
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      tail = previous.then(() => released);
      return { ready: previous, release };
    },
  };
}
