import { continueWith, isPromiseLike, type MaybeAsync } from "./later.js";

export { isPromiseLike };
export type { MaybeAsync } from "./later.js";

/**
 * Calls `step` for each item in order; when one returns a promise, the rest wait for it (one after another, as an
 * `await` in a loop would). Returns nothing when every step was synchronous.
 */
export function forEachMaybeAsync<T>(
  items: readonly T[],
  step: (item: T) => void | PromiseLike<void>,
  from = 0,
): void | Promise<void> {
  for (let index = from; index < items.length; index++) {
    const pending = step(items[index]!);
    if (isPromiseLike(pending)) {
      return Promise.resolve(pending).then(() => forEachMaybeAsync(items, step, index + 1));
    }
  }
}

/**
 * Runs `start`, then `next` on its value (at once when it is not a promise: no promise made), or `fail` on what it
 * threw or rejected with: a `try`/`await`/`catch` around `start` alone (what `next` throws is not `fail`'s), which
 * costs at most one `then` (none on a `Later`, which folds `next` and `fail` in).
 */
export function attempt<T, R>(
  start: () => MaybeAsync<T>,
  next: (value: T) => MaybeAsync<R>,
  fail: (error: unknown) => MaybeAsync<R>,
): MaybeAsync<R> {
  let value: MaybeAsync<T>;
  try {
    value = start();
  } catch (error) {
    return fail(error);
  }
  return continueWith(value, next, fail);
}

/**
 * `next` on the value: at once when it is not a promise (no promise made), else in the promise's one `then`, or
 * folded into a `Later`'s.
 */
export function andThen<T, R>(value: MaybeAsync<T>, next: (value: T) => MaybeAsync<R>): MaybeAsync<R> {
  return continueWith(value, next);
}
