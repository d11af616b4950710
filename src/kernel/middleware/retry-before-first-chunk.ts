import type { ModelCall } from "./middleware.js";
import type { ModelChunk } from "../vocabulary/model.js";

/**
 * Calls `next` and streams its chunks; when it fails before the first chunk, asks `recover` whether to call it
 * again (a retry after a chunk would duplicate output, so the error is rethrown then). `recover` may adjust the
 * request (the kernel re-encodes on every attempt) and wait; it returns false, or throws, to give up.
 */
export async function* retryBeforeFirstChunk(
  next: ModelCall,
  recover: (error: unknown, attempt: number) => boolean | Promise<boolean>,
): AsyncIterable<ModelChunk> {
  for (let attempt = 1; ; attempt++) {
    let yielded = false;
    try {
      for await (const chunk of next()) {
        yielded = true;
        yield chunk;
      }
      return;
    } catch (error) {
      if (yielded || !(await recover(error, attempt))) throw error;
    }
  }
}
