/**
 * The minimal abort signal the kernel needs. A DOM `AbortSignal` satisfies it; the workflow driver builds one
 * from a Temporal cancellation scope.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * How the kernel reaches time, randomness and ids. The in-process driver uses the clock, `Math.random` and
 * `randomUUID`; the workflow driver uses workflow time, the seeded PRNG and `uuid4()`, so replays see the same.
 */
export interface KernelPorts {
  /** Milliseconds since the epoch. */
  now(): number;
  /** A number in [0, 1). */
  random(): number;
  /** A fresh unique id (a UUID). */
  newId(): string;
  /** Resolves after `ms`, or rejects with an AbortError when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignalLike): Promise<void>;
}

/** A signal that never aborts. */
export const NEVER_ABORTED: AbortSignalLike = Object.freeze({
  aborted: false,
  addEventListener() {},
  removeEventListener() {},
});
