import { CancellationScope, sleep } from "@temporalio/workflow";

/** The longest a run waits for its cancelled background children (a child whose worker is gone never answers). */
export const BACKGROUND_STOP_WAIT_MS = 10_000;

/**
 * What a durable run waits for before `done`, after cancelling its joinable child sessions: their stop or
 * {@link BACKGROUND_STOP_WAIT_MS}, whichever is first, so no child is left running, yet one that cannot answer does not
 * hold the run. Waits outside the run's cancelled scope, where a timer would end at once.
 */
export function awaitBackgroundStop(stopped: Promise<void>): Promise<void> {
  return CancellationScope.nonCancellable(async () => {
    const timer = new CancellationScope();
    const expired = timer
      .run(() => sleep(BACKGROUND_STOP_WAIT_MS, { summary: "background tasks stop, or their wait ends" }))
      .catch(() => undefined);
    await Promise.race([stopped, expired]);
    timer.cancel();
  });
}
