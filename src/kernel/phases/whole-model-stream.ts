import { Later } from "../coroutine/later.js";
import type { ModelChunk } from "../vocabulary/model.js";
import type { MaybeAsync } from "../coroutine/maybe-async.js";

/**
 * A model stream whose chunks all arrive at once, like a durable model's recorded message. Iterating yields them one
 * by one; the kernel, when no middleware wraps the call, takes them with `settle` instead: one `then` rather than a
 * promise per iteration step (docs/decisions/0014).
 */
export interface WholeModelStream extends AsyncIterable<ModelChunk> {
  /**
   * Hands every chunk of the response, in order, to `ok`, or what the call failed with to `fail`, in the call's
   * one `then`; the first use starts the call. Later uses see the same outcome.
   */
  settle<R>(ok: Settled<ModelChunk[], R>, fail: Settled<unknown, R>): Later<R>;
}

/** What `settle` hands the chunks or the failure to. */
type Settled<T, R> = (value: T) => MaybeAsync<R>;

/** How a whole stream's call went: its chunks, or what it failed with. */
type Outcome = { chunks: ModelChunk[] } | { error: unknown };

/**
 * A stream of the chunks `chunksOf` makes of what `load` resolves to; when `load` rejects, it fails with what
 * `failureOf` makes of the rejection. `load` is called once, when the stream is first read, and `chunksOf` or
 * `failureOf` once, when it settles.
 */
export function wholeModelStream<T>(
  load: () => Promise<T>,
  chunksOf: (value: T) => ModelChunk[],
  failureOf: (error: unknown) => unknown = (error) => error,
): WholeModelStream {
  let loaded: Promise<T> | undefined;
  let outcome: Outcome | undefined;
  const conclude = <R>(ok: Settled<ModelChunk[], R>, fail: Settled<unknown, R>, reached: () => Outcome) => {
    outcome ??= reached();
    return "chunks" in outcome ? ok(outcome.chunks) : fail(outcome.error);
  };
  const settle = <R>(ok: Settled<ModelChunk[], R>, fail: Settled<unknown, R>): Later<R> => {
    loaded ??= load();
    return new Later<R>(
      loaded,
      (value: T) => conclude(ok, fail, () => chunksOrError(chunksOf, value)),
      (error: unknown) => conclude(ok, fail, () => ({ error: failureOf(error) })),
    );
  };
  return {
    settle,
    async *[Symbol.asyncIterator]() {
      yield* await settle(
        (chunks) => chunks,
        (error) => {
          throw error;
        },
      );
    },
  };
}

function chunksOrError<T>(chunksOf: (value: T) => ModelChunk[], value: T): Outcome {
  try {
    return { chunks: chunksOf(value) };
  } catch (error) {
    return { error };
  }
}

/** Whether a stream can hand over all its chunks at once. */
export function isWholeModelStream(stream: AsyncIterable<ModelChunk>): stream is WholeModelStream {
  return typeof (stream as Partial<WholeModelStream>).settle === "function";
}
