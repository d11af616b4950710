/** How long a breaker stays open after a failure: the first window, doubled at each failure in a row, up to a cap. */
export interface BreakerBackoff {
  /** The first window, in ms (default 30 s). */
  backoffMs: number;
  /** The longest window, in ms (default 5 minutes). */
  maxBackoffMs: number;
}

/** Default breaker windows: 30 s, doubling to 5 minutes. */
export const DEFAULT_BREAKER_BACKOFF: BreakerBackoff = { backoffMs: 30_000, maxBackoffMs: 300_000 };

/** Where a breaker stands: `closed` lets everything through, `open` nothing until `retryAt`, `half_open` one probe. */
export type BreakerState =
  { state: "closed" } | { state: "open" | "half_open"; retryAt: number; lastError: string; failures: number };

/** What the breaker says to one attempt: go ahead (as the probe, when half-open), or not before `retryAt`. */
export type BreakerVerdict = { pass: true; probe: boolean } | { pass: false; state: BreakerState };

/**
 * The circuit breaker of one server, on an injected clock. A failure opens it for a window (doubling while failures
 * follow each other); after the window one attempt goes through (half-open): its success closes it, its failure opens
 * it for the next, longer window. Others are refused while that probe is out.
 */
export class CircuitBreaker {
  private current: BreakerState = { state: "closed" };

  constructor(
    private readonly backoff: BreakerBackoff,
    private readonly now: () => number,
  ) {}

  /** The state now (an open breaker whose window has passed reads as half-open). */
  state(): BreakerState {
    const current = this.current;
    if (current.state === "open" && this.now() >= current.retryAt) return { ...current, state: "half_open" };
    return current;
  }

  /** Whether an attempt may go; the first one after an open window becomes the probe. */
  admit(): BreakerVerdict {
    const current = this.current;
    if (current.state === "closed") return { pass: true, probe: false };
    if (current.state === "open" && this.now() >= current.retryAt) {
      this.current = { ...current, state: "half_open" };
      return { pass: true, probe: true };
    }
    return { pass: false, state: this.current };
  }

  /** An attempt reached the server: closed again. */
  succeed(): void {
    this.current = { state: "closed" };
  }

  /** An attempt failed: open for the next window, which doubles with every failure in a row. */
  fail(error: string): BreakerState {
    const failures = this.current.state === "closed" ? 1 : this.current.failures + 1;
    const window = Math.min(
      this.backoff.backoffMs * 2 ** Math.min(failures - 1, 30),
      this.backoff.maxBackoffMs,
    );
    this.current = { state: "open", retryAt: this.now() + window, lastError: error, failures };
    return this.current;
  }
}
