import type { AbortSignalLike } from "../vocabulary/ports.js";
import { checkTotalLimit } from "./background-limits.js";
import type { BackgroundCompletion, BackgroundSpawn, BackgroundTasks } from "./types.js";

/**
 * A run's registry with an owner that outlives the run (a durable session): joinable tasks belong to the run; detached
 * ones go to `detached`, which the run never cancels. Completions of both arrive at the next turn start of whichever
 * run is going; `maxTotal` counts both registries' running tasks together.
 */
export function withDetached(
  run: BackgroundTasks,
  detached: BackgroundTasks,
  maxTotal?: number,
): BackgroundTasks {
  const owner = (id: string) => (detached.read(id) !== null || isDetachedId(detached, id) ? detached : run);
  return {
    spawn: (task: BackgroundSpawn) => {
      checkTotalLimit(run.pendingJoinable() + detached.pendingDetached(), maxTotal);
      return (task.kind === "detached" ? detached : run).spawn(task);
    },
    pendingJoinable: () => run.pendingJoinable(),
    pendingDetached: () => detached.pendingDetached(),
    hasCompleted: () => run.hasCompleted() || detached.hasCompleted(),
    takeCompleted: (): BackgroundCompletion[] => [...run.takeCompleted(), ...detached.takeCompleted()],
    waitNextJoinable: (signal?: AbortSignalLike) => run.waitNextJoinable(signal),
    read: (id, options) => owner(id).read(id, options),
    listDetached: () => detached.listDetached(),
    cancel: (id) => owner(id).cancel(id),
    // The run's own work ends with it; detached tasks are the owner's to cancel.
    cancelAll: () => run.cancelAll(),
    joinableStopped: () => run.joinableStopped?.() ?? Promise.resolve(),
  };
}

function isDetachedId(detached: BackgroundTasks, id: string): boolean {
  return detached.listDetached().some((task) => task.id === id);
}
