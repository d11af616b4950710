import type { Connection } from "@temporalio/client";

/**
 * Runs `fn`'s Temporal calls so that aborting `signal` cancels them, without leaving listeners on `signal`: each use
 * gets a signal of its own, linked to `signal` only while `fn` runs.
 */
export async function withCallAbortSignal<T>(
  connection: Pick<Connection, "withAbortSignal">,
  signal: AbortSignal,
  fn: () => Promise<T>,
): Promise<T> {
  // `connection.withAbortSignal` adds a listener per gRPC call and never removes it (@temporalio/client 1.23): on a
  // signal as long-lived as a followed run, that would leak one listener, and its call, per long poll.
  const call = new AbortController();
  const abort = () => call.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  try {
    return await connection.withAbortSignal(call.signal, fn);
  } finally {
    signal.removeEventListener("abort", abort);
  }
}
