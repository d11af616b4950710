import { isPromiseLike, whenSettled } from "./later.js";
import type { MaybeAsync } from "./maybe-async.js";

/** A generator of steps: it yields what it waits for and gets the value back (or the failure thrown in). */
export type Steps<R> = Generator<unknown, R, unknown>;

/**
 * Runs `steps` to their result, as an async function runs its body: each wait is the one `then` on what was yielded,
 * and a `Later`'s steps run in that `then`. An `await` on a step chain cost a promise of its own besides, and in a
 * workflow the SDK captures a stack trace for every promise (docs/decisions/0014).
 */
export function driveSteps<R>(steps: Steps<R>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    // One pair of callbacks for the whole run, not one a wait.
    const onValue = (value: unknown) => advance(value, false);
    const onError = (error: unknown) => advance(error, true);
    function advance(input: unknown, failed: boolean): void {
      for (;;) {
        let step: IteratorResult<unknown, R>;
        try {
          step = failed ? steps.throw(input) : steps.next(input);
        } catch (error) {
          reject(error);
          return;
        }
        if (step.done) {
          resolve(step.value);
          return;
        }
        const awaited = step.value;
        if (!isPromiseLike(awaited)) {
          input = awaited;
          failed = false;
          continue;
        }
        whenSettled(awaited, onValue, onError);
        return;
      }
    }
    advance(undefined, false);
  });
}

/** In `steps`: `const value = yield* wait(maybeAsync)`, with no yield at all for a value that is not a promise. */
export function* wait<T>(value: MaybeAsync<T>): Generator<unknown, T, unknown> {
  if (!isPromiseLike(value)) return value;
  return (yield value) as T;
}
