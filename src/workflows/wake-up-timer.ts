import { CancellationScope, sleep } from "@temporalio/workflow";

/** How often a session waiting for a streaming model call is woken, whether or not anything happened. */
const WAKE_UP_MS = 15_000;

/**
 * One wake-up timer for all of a run's streaming model calls, armed for the Temporal-native live-output transport.
 * Rejected updates run on speculative workflow tasks; the chaos benchmark saw, once in 100 runs, a session that never
 * processed the completion of the model call right after such a task (the SDK core's buffered-query race:
 * docs/architecture.md, "A defect of the SDK"; `npm run bench -- sdk-race`). The timer was added, before that cause
 * was known, as a later task to set such a session going; in the reproduction only a replay on another worker does. Model output now travels in
 * heartbeats (no update), so the timer only still matters for tool events sent as updates; removing it changes the
 * session's commands, which is left to the change that moves tool events too. The first streaming call arms it, it is re-armed every 15 s while a call is in
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
