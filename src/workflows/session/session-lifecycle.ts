import type { AgentEvent } from "../../kernel/vocabulary/events.js";
import type { BudgetStop, SessionFailure } from "../../contract/session-status.js";
import { MAX_FAILURE_CHARS, clip } from "./status-bounds.js";

/**
 * Whether the session still takes runs, and how its last run ended (a failure, a budget stop). The status reads
 * it; the failure is carried across continue-as-new.
 */
export class SessionLifecycle {
  closed = false;
  /** The last fatal error of a run (its outcome is recorded when the run finishes). */
  private lastError: SessionFailure | undefined;
  /** The last run's budget stop, from its `budget_exceeded` event (shown until a run ends otherwise). */
  private stop: BudgetStop | undefined;
  /** Why the last run failed; cleared by the next run that ends otherwise. `terminal`: the session cannot run. */
  private lastFailure: SessionFailure | undefined;

  constructor(
    private readonly agent: string,
    failure: SessionFailure | undefined,
  ) {
    this.lastFailure = failure;
  }

  get failure(): SessionFailure | undefined {
    return this.lastFailure;
  }

  get budgetStop(): BudgetStop | undefined {
    return this.stop;
  }

  /** Notes what a run's event says of its outcome: a fatal error, a budget limit reached. */
  observe(runId: string, event: AgentEvent): void {
    if (event.type === "error" && event.fatal) this.noteFatalError(runId, event.error.message);
    if (event.type === "budget_exceeded")
      this.stop = { runId, limit: event.limit, used: event.used, max: event.max };
  }

  /**
   * A run that ended with an error leaves the session `failed` (with why) until a later run ends otherwise. An
   * unknown agent ends the session: it closes, and stays `failed`.
   */
  settle(runId: string, stopReason: string): void {
    if (stopReason !== "budget" || this.stop?.runId !== runId) this.stop = undefined;
    if (stopReason !== "error") {
      this.lastFailure = undefined;
      return;
    }
    const noted = this.lastError?.runId === runId ? this.lastError : undefined;
    this.lastFailure = noted ?? { runId, message: "the run ended with an error" };
    if (this.lastFailure.terminal) this.closed = true;
    else delete this.lastFailure.terminal;
  }

  /** Refuses a request to a closed session, with why it closed when its agent cannot run. */
  rejectIfClosed(sessionId: string): void {
    if (!this.closed) return;
    const why = this.lastFailure?.terminal ? `: its run failed (${this.lastFailure.message})` : "";
    throw new TypeError(`session '${sessionId}' is closed${why}`);
  }

  private noteFatalError(runId: string, message: string): void {
    const failure: SessionFailure = { runId, message: clip(message, MAX_FAILURE_CHARS) };
    // The session's agent is fixed: when no worker knows it, no run of this session can ever work.
    if (message.startsWith(`unknown agent '${this.agent}'`)) failure.terminal = true;
    this.lastError = failure;
  }
}
