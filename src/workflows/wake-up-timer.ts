import { CancellationScope, sleep } from "@temporalio/workflow";

/** How often a session waiting for a streaming model call is woken, whether or not anything happened. */
const WAKE_UP_MS = 15_000;

/**
 * While a model call streams live output, keeps a timer running (re-armed every 15 s) and returns the function
 * that stops it. Live output reaches the session as rejected updates, which run on speculative workflow tasks; the
 * chaos benchmark saw, once in 100 runs, a session that never processed the completion of the model call right
 * after such a task, and any later workflow task set it going again. The timer is that later task. It costs two
 * history events per model call (started, cancelled), three more per 15 s of a longer call. Sessions decide once,
 * at their start, whether they do this (`patched("wake-up-while-streaming")`), so older histories replay unchanged;
 * since `patched("fewer-turn-commands")`, only when the worker sends live output as updates (the Temporal
 * transport): with Redis or no live output, no update reaches the session during the call.
 *
 * This is the shape of executions begun before {@link wakeUpInCallScope}: a scope of its own, cancelled after the
 * call's.
 */
export function wakeUpWhileStreaming(): () => void {
  const scope = new CancellationScope();
  scope
    .run(async () => {
      for (;;) await sleep(WAKE_UP_MS);
    })
    .catch(() => undefined);
  return () => scope.cancel();
}

/**
 * The same wake-ups, started in the current scope (the model call's, before its activity is scheduled): the caller
 * cancels that scope once the call has ended, which cancels the timer (and nothing else: the activity has settled).
 * A scope of its own cost each model call ten promises in the workflow, each a stack trace for the SDK
 * (docs/decisions/0014); this costs three. The commands are the same but for their order when the call is
 * cancelled in flight (an interrupt, a cancelled run): the timer's cancel now comes first, so executions take this
 * shape only once `patched("wake-up-in-call-scope")` said so (`SessionState.wakeUpsInCallScope`), and until
 * `patched("wake-up-per-run")` ({@link RunWakeUps}).
 */
export function wakeUpInCallScope(): void {
  sleep(WAKE_UP_MS).then(wakeUpInCallScope, () => undefined);
}

/**
 * One wake-up timer for all of a run's streaming model calls: the first arms it, it is re-armed every 15 s while a
 * call is in flight, and when it fires with none in flight it stops until the next call arms it again; the run's end
 * cancels it. The guarantee is the same (a call in flight is woken within 15 s), but a run's calls no longer cost two
 * history events each (its timer started and cancelled): two for every 15 s of the run in which calls stream, and
 * the calls keep one cancellation scope (docs/decisions/0014, phase 6). Executions take this shape once
 * `patched("wake-up-per-run")` said so (`SessionState.wakeUpsPerRun`).
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
