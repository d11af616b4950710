import type { Client } from "@temporalio/client";
import { awaitRunEndUpdate } from "../workflows/messages.js";
import { withCallAbortSignal } from "./call-abort-signal.js";
import { updateWithRetry } from "./update-with-retry.js";

/** How often a wake follows a run into the next execution (each continue-as-new answers once). */
const MAX_EXECUTIONS_FOLLOWED = 20;

/**
 * A follower's wake-up at the end of a run: an `awaitRunEnd` update the session answers when the run has ended, so
 * the follower reads the run's `done` at once instead of at its next poll (up to 200 ms later in a busy session,
 * docs/decisions/0014 phase 14). Only a hint: a refusal (the run ended, too many waiters, an older worker), a failure
 * or a continue-as-new also wakes the follower, which then reads as it always does; a continue-as-new asks the next
 * execution again.
 */
export class RunEndWake {
  private fired = false;
  private sleeper: (() => void) | undefined;

  constructor(
    private readonly temporal: Client,
    private readonly sessionId: string,
    private readonly runId: string,
    private readonly signal: AbortSignal,
  ) {
    void this.watch();
  }

  /** Waits `ms`, or less when the wake has fired since the last wait (each firing cuts one wait short). */
  sleep(ms: number): Promise<void> {
    if (this.signal.aborted || this.takeFired()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.signal.removeEventListener("abort", done);
        if (this.sleeper === done) this.sleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal.addEventListener("abort", done, { once: true });
      this.sleeper = done;
    });
  }

  private takeFired(): boolean {
    const fired = this.fired;
    this.fired = false;
    return fired;
  }

  private fire(): void {
    if (this.sleeper) this.sleeper();
    else this.fired = true;
  }

  private async watch(): Promise<void> {
    const handle = this.temporal.workflow.getHandle(this.sessionId);
    const connection = this.temporal.connection;
    for (let execution = 0; execution < MAX_EXECUTIONS_FOLLOWED && !this.signal.aborted; execution++) {
      let ended = true;
      try {
        const answer = await updateWithRetry((updateId) =>
          withCallAbortSignal(connection, this.signal, () =>
            handle.executeUpdate(awaitRunEndUpdate, { args: [{ runId: this.runId }], updateId }),
          ),
        );
        ended = answer.ended;
      } catch {
        // Refused or failed: the follower reads at its own pace from here.
      }
      if (this.signal.aborted) return;
      this.fire();
      if (ended) return;
    }
  }
}
