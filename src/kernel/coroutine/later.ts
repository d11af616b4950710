/**
 * A value now, or a promise of it. The turn loop's hooks are mostly synchronous or absent; returning their result
 * directly lets the loop go on without an `await`, and so without a promise: in a workflow the SDK captures a stack
 * trace for every promise, which was most of a durable turn's CPU time (docs/decisions/0014).
 */
export type MaybeAsync<T> = T | Promise<T>;

/** A step that takes a value (or a failure) and goes on with it. */
type Step<T, R> = (value: T) => MaybeAsync<R>;

/** The default `onError`: a failure passes through unchanged. */
function rethrow(error: unknown): never {
  throw error;
}

/**
 * A promise's outcome mapped through `onValue`/`onError`, with no promise of its own until one is asked for: the
 * steps after an activity fold into one `then`, since the workflow SDK traces every promise (docs/decisions/0014).
 * A `Promise` to everyone else. Taken once: folding a step into it, or settling it, twice throws.
 */
export class Later<T> implements Promise<T> {
  readonly [Symbol.toStringTag] = "Later";
  private promise: Promise<T> | undefined;
  private taken = false;

  constructor(
    private readonly source: PromiseLike<unknown>,
    private readonly onValue: Step<never, T>,
    private readonly onError: Step<unknown, T> = rethrow,
  ) {}

  /**
   * The outcome handed to `next`, or its failure to `fail` when given (else it passes on), in the source's one
   * `then`. Like `then(next, fail)`: what `next` throws is not `fail`'s.
   */
  fold<R>(next: Step<T, R>, fail?: Step<unknown, R>): Later<R> {
    this.take();
    const onward = (outcome: () => MaybeAsync<T>): MaybeAsync<R> => {
      let value: MaybeAsync<T>;
      try {
        value = outcome();
      } catch (error) {
        if (fail) return fail(error);
        throw error;
      }
      return continueWith(value, next, fail);
    };
    return new Later<R>(
      this.source,
      (value) => onward(() => this.onValue(value as never)),
      (error) => onward(() => this.onError(error)),
    );
  }

  /**
   * Puts the one `then` on the source and hands the final value to `resolve`, or what failed to `reject`; a step that
   * returned a promise (or another `Later`) is waited for first. Neither callback may throw.
   */
  settle(resolve: (value: T) => void, reject: (error: unknown) => void): void {
    this.take();
    const deliver = (outcome: () => MaybeAsync<T>): void => {
      let value: MaybeAsync<T>;
      try {
        value = outcome();
      } catch (error) {
        reject(error);
        return;
      }
      if (isPromiseLike(value)) whenSettled(value, resolve, reject);
      else resolve(value);
    };
    this.source.then(
      (value) => deliver(() => this.onValue(value as never)),
      (error: unknown) => deliver(() => this.onError(error)),
    );
  }

  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.asPromise().then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.asPromise().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.asPromise().finally(onfinally);
  }

  private asPromise(): Promise<T> {
    this.promise ??= new Promise<T>((resolve, reject) => this.settle(resolve, reject));
    return this.promise;
  }

  private take(): void {
    if (this.taken) throw new Error("internal error: a Later was taken twice");
    this.taken = true;
  }
}

/** `next` on the value (a `Later` folds it in; a promise gets one `then`); with `fail`, its failure goes there. */
export function continueWith<T, R>(
  value: MaybeAsync<T>,
  next: Step<T, R>,
  fail?: Step<unknown, R>,
): MaybeAsync<R> {
  if (value instanceof Later) return value.fold(next, fail);
  if (isPromiseLike(value)) return fail ? value.then(next, fail) : value.then(next);
  return next(value);
}

/** Hands what `value` settles with on: a `Later` through its one `then` on its source, a promise through its own. */
export function whenSettled<T>(
  value: PromiseLike<T>,
  resolve: (value: T) => void,
  reject: (error: unknown) => void,
): void {
  if (value instanceof Later) value.settle(resolve, reject);
  else value.then(resolve, reject);
}

/** Whether a hook's result must be awaited. */
export function isPromiseLike<T>(value: MaybeAsync<T> | PromiseLike<T>): value is Promise<T> {
  return typeof (value as PromiseLike<T> | null)?.then === "function";
}
