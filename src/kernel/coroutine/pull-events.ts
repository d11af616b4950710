import type { EventOutlet } from "./event-outlet.js";
import type { AgentEvent } from "../vocabulary/events.js";
import type { MaybeAsync } from "./maybe-async.js";

/**
 * Thrown at the loop's pause once the consumer stopped iterating: the loop unwinds as a closed generator would
 * (`finally` blocks run, an open model stream is closed) and does nothing more. Kernel code that catches errors
 * around a pause rethrows it.
 */
export class RunClosedError extends Error {
  constructor() {
    super("the run's events are no longer read");
    this.name = "RunClosedError";
  }
}

/**
 * Runs `body` and yields the events it delivers as if it were an async generator: code after a pause runs only once
 * the consumer has taken everything before it; events pushed without a pause (live tool events) come as they come.
 * When the consumer stops early, the paused body gets a `RunClosedError`.
 */
export async function* pullEvents<Result>(
  body: (outlet: EventOutlet) => Promise<Result>,
): AsyncGenerator<AgentEvent, Result> {
  const outlet = new PullOutlet<Result>();
  void body(outlet).then(
    (result) => outlet.settle({ result }),
    (error: unknown) => outlet.settle({ error }),
  );
  try {
    for (;;) {
      while (outlet.queue.length > 0) yield outlet.queue.shift()!;
      const outcome = outlet.outcome;
      if (outcome && "error" in outcome) throw outcome.error;
      if (outcome) return outcome.result;
      await outlet.demand();
    }
  } finally {
    outlet.close();
  }
}

/** The outlet `pullEvents` gives its body: a queue, the paused body and the waiting consumer. */
class PullOutlet<Result> implements EventOutlet {
  readonly queue: AgentEvent[] = [];
  outcome: { result: Result } | { error: unknown } | undefined;
  /** The consumer, waiting for an event, a pause or the end. */
  private waiting: (() => void) | undefined;
  /** The body, paused until the consumer asks for more. */
  private paused: { resume(): void; close(error: Error): void } | undefined;
  private closed = false;

  push(event: AgentEvent): void {
    this.queue.push(event);
    this.wake();
  }

  pause(): MaybeAsync<void> {
    if (this.closed) return Promise.reject(new RunClosedError());
    // The consumer already asked for more and nothing is left to take: a generator would not be paused here.
    if (this.waiting && this.queue.length === 0) return undefined;
    return new Promise<void>((resume, close) => {
      this.paused = { resume, close };
      this.wake();
    });
  }

  /** Records how the body ended. */
  settle(outcome: { result: Result } | { error: unknown }): void {
    this.outcome = outcome;
    this.wake();
  }

  /** The consumer asks for more: resumes a paused body; resolves once it delivered, paused again or ended. */
  demand(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting = resolve;
      const paused = this.paused;
      this.paused = undefined;
      paused?.resume();
    });
  }

  /** The consumer is gone: a paused body, and one that pauses later, unwinds. */
  close(): void {
    this.closed = true;
    this.paused?.close(new RunClosedError());
    this.paused = undefined;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
