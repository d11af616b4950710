import { CancellationScope, sleep } from "@temporalio/workflow";
import type { ExecutionPatches } from "./execution-patches.js";

/** The longest a run waits for its cancelled background children (a child whose worker is gone never answers). */
export const BACKGROUND_STOP_WAIT_MS = 10_000;

/**
 * What a durable run waits for before its `done`, once it has cancelled its joinable background tasks (child
 * sessions, cancelled with `WAIT_CANCELLATION_COMPLETED`): their stop, or {@link BACKGROUND_STOP_WAIT_MS}, whichever
 * comes first. So after `done` no child of the run is left running or waiting for a person, and a child that cannot
 * answer does not hold the run. The wait is outside the run's cancelled scope (a timer there would end at once).
 * Executions that met this point before the change ended at once: the patch `await-background-stop` is asked only
 * here, and only by executions begun before the patch set (execution-patches.ts).
 */
export function awaitBackgroundStop(
  stopped: Promise<void>,
  patches: ExecutionPatches,
): Promise<void> | undefined {
  if (!patches.has("await-background-stop")) return undefined;
  return CancellationScope.nonCancellable(async () => {
    const timer = new CancellationScope();
    const expired = timer.run(() => sleep(BACKGROUND_STOP_WAIT_MS)).catch(() => undefined);
    await Promise.race([stopped, expired]);
    timer.cancel();
  });
}
