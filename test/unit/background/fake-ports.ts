import { AbortError } from "../../../src/kernel/vocabulary/errors.js";
import type { AbortSignalLike, KernelPorts } from "../../../src/kernel/vocabulary/ports.js";

/** A sleep the test ends by hand. */
export interface PendingSleep {
  ms: number;
  signal: AbortSignalLike | undefined;
  fire(): void;
}

/** Ports whose `random` replays `randoms` (cycling) and whose `sleep` waits until the test fires it. */
export function fakePorts(randoms: number[] = [0.5]): { ports: KernelPorts; sleeps: PendingSleep[] } {
  const sleeps: PendingSleep[] = [];
  let draws = 0;
  const ports: KernelPorts = {
    now: () => 0,
    random: () => randoms[draws++ % randoms.length] ?? 0,
    newId: () => `id-${draws++}`,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        sleeps.push({ ms, signal, fire: resolve });
        signal?.addEventListener("abort", () => reject(new AbortError()), { once: true });
      }),
  };
  return { ports, sleeps };
}

/** A promise the test settles by hand. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** Builds a Deferred. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every queued promise callback run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
