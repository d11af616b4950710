import type { AgentEvent } from "../vocabulary/events.js";
import type { MaybeAsync } from "../coroutine/maybe-async.js";
import type { RunState } from "./run-state.js";
import { appendUserMessages } from "./user-messages.js";

/** Step 8: follow-ups resurrect a run that would stop; returns their events (none, synchronously, when none). */
export function resumeWithFollowUps(run: RunState): MaybeAsync<AgentEvent[]> {
  const followUps = run.steer?.takeFollowUps() ?? [];
  if (followUps.length === 0) return [];
  return appendUserMessages(run, followUps).then((events) => [
    ...events,
    { type: "steer", messages: followUps },
  ]);
}

/** Step 8: a run that owns pending joinable work waits for it instead of stopping (no promise when it owns none). */
export function joinBackground(run: RunState): MaybeAsync<boolean> {
  const background = run.background;
  if (!background?.owned) return false;
  if (background.tasks.pendingJoinable() === 0 && !background.tasks.hasCompleted()) return false;
  return background.tasks.waitNextJoinable(run.signal).then(() => true);
}
