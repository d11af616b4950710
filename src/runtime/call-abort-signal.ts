import type { Connection } from "@temporalio/client";

/**
 * Runs `fn`'s Temporal calls so that aborting `signal` cancels them, without leaving anything on `signal`. The SDK's
 * `connection.withAbortSignal` adds an abort listener to the signal for every gRPC call made under it and never
 * removes it (@temporalio/client 1.23), so a signal that lives as long as a followed run (hours, while it waits for
 * a person) would collect one listener, and the call it holds, per long poll: a leak, and Node's
 * MaxListenersExceededWarning after ten. Each use here gets a signal of its own, linked to `signal` only while
 * `fn` runs.
 */
export async function withCallAbortSignal<T>(
  connection: Pick<Connection, "withAbortSignal">,
  signal: AbortSignal,
  fn: () => Promise<T>,
): Promise<T> {
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
