import { CancellationScope, sleep } from "@temporalio/workflow";

/** The longest a run waits for its cancelled background children (a child whose worker is gone never answers). */
export const BACKGROUND_STOP_WAIT_MS = 10_000;

/**
 * What a durable run waits for before its `done`, once it has cancelled its joinable background tasks (child
 * sessions, cancelled with `WAIT_CANCELLATION_COMPLETED`): their stop, or {@link BACKGROUND_STOP_WAIT_MS}, whichever
 * comes first. So after `done` no child of the run is left running or waiting for a person, and a child that cannot
 * answer does not hold the run. The wait is outside the run's cancelled scope (a timer there would end at once).
 */
export function awaitBackgroundStop(stopped: Promise<void>): Promise<void> {
  return CancellationScope.nonCancellable(async () => {
    const timer = new CancellationScope();
    const expired = timer.run(() => sleep(BACKGROUND_STOP_WAIT_MS)).catch(() => undefined);
    await Promise.race([stopped, expired]);
    timer.cancel();
  });
}
