import { toSessionError } from "./client-errors.js";

/** Runs one operation on a session; what it throws comes out as {@link toSessionError} maps it. */
export async function sessionCall<T>(
  sessionId: string,
  operation: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toSessionError(error, sessionId, operation);
  }
}

/** A session's stream read through {@link sessionCall}, item by item; closing it closes the stream it reads. */
export async function* sessionStream<T, R>(
  sessionId: string,
  operation: string,
  stream: AsyncGenerator<T, R>,
): AsyncGenerator<T, R> {
  try {
    for (;;) {
      const next = await sessionCall(sessionId, operation, () => stream.next());
      if (next.done) return next.value;
      yield next.value;
    }
  } finally {
    // A no-op once the stream ended; closes it when the reader stopped early.
    await stream.return(undefined as never);
  }
}
