import { CancellationScope, sleep } from "@temporalio/workflow";

/** How often a session waiting for a streaming model call is woken, whether or not anything happened. */
const WAKE_UP_MS = 15_000;

/**
 * One wake-up timer for all of a run's streaming model calls, while live output reaches the session as rejected
 * updates. With those, queries and a workflow task in flight at once, the SDK's core can complete the task that
 * carries a model call's result with no command (docs/architecture.md, "A defect of the SDK"; `npm run bench --
 * sdk-race`). The timer was added, before that cause was known, as a later task to set such a session going; in the
 * reproduction only a replay on another worker does. The first streaming call arms it, it is re-armed every 15 s while a call is in
 * flight, and when it fires with none in flight it stops until the next call arms it again; the run's end cancels
 * it. Cost: two history events for every 15 s of a run in which calls stream.
 */
export class RunWakeUps {
  private inFlight = 0;
  private scope: CancellationScope | undefined;

  /** @param parent the run's scope: cancelling the run cancels the timer too. */
  constructor(private readonly parent: CancellationScope) {}

  /** A streaming call starts: arms the timer unless it runs. Returns the function that says the call ended. */
  callStarted(): () => void {
    this.inFlight++;
    if (!this.scope) this.arm();
    let open = true;
    return () => {
      if (open) this.inFlight--;
      open = false;
    };
  }

  /** The run ends: cancels the timer if it runs (one command). */
  stop(): void {
    this.scope?.cancel();
    this.scope = undefined;
  }

  private arm(): void {
    const scope = new CancellationScope({ cancellable: true, parent: this.parent });
    this.scope = scope;
    const wake = (): Promise<void> =>
      sleep(WAKE_UP_MS).then(() => {
        if (this.inFlight > 0) return wake();
        if (this.scope === scope) this.scope = undefined;
      });
    scope.run(wake).catch(() => undefined);
  }
}
