import type { ModelChunk } from "./model.js";

/**
 * A model stream whose chunks all arrive at once, as a durable model's recorded message does. Iterating it yields
 * them one by one like any stream; the kernel, when no middleware wraps the call, takes them in one await instead,
 * sparing the promises each step of async iteration costs (docs/decisions/0014).
 */
export interface WholeModelStream extends AsyncIterable<ModelChunk> {
  /** Every chunk of the response, in order; the first use starts the call. */
  whole(): Promise<ModelChunk[]>;
}

/** A stream of the chunks `load` resolves to, called once, when the stream is first read. */
export function wholeModelStream(load: () => Promise<ModelChunk[]>): WholeModelStream {
  let chunks: Promise<ModelChunk[]> | undefined;
  const whole = () => (chunks ??= load());
  return {
    whole,
    async *[Symbol.asyncIterator]() {
      yield* await whole();
    },
  };
}

/** Whether a stream can hand over all its chunks at once. */
export function isWholeModelStream(stream: AsyncIterable<ModelChunk>): stream is WholeModelStream {
  return typeof (stream as Partial<WholeModelStream>).whole === "function";
}
