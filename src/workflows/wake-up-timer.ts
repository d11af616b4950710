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
