import { AgentError } from "../vocabulary/errors.js";
import type { BackgroundKind, BackgroundLimits } from "./types.js";

export type { BackgroundKind };

/** Throws the `maxTotal` error when `running` tasks leave no room for one more (no limit when `maxTotal` is unset). */
export function checkTotalLimit(running: number, maxTotal: number | undefined): void {
  if (maxTotal !== undefined && running >= maxTotal)
    throw new AgentError(
      `Background task limit reached: ${running} tasks are running (maxTotal ${maxTotal}).`,
    );
}

/** Throws when one more task of `kind` would pass `maxTotal`, or the kind's own cap, given what runs now. */
export function checkSpawnLimits(
  limits: BackgroundLimits,
  kind: BackgroundKind,
  running: { total: number; ofKind: number },
): void {
  checkTotalLimit(running.total, limits.maxTotal);
  const cap = kind === "joinable" ? limits.maxJoinable : limits.maxDetached;
  if (cap !== undefined && running.ofKind >= cap) {
    const name = kind === "joinable" ? "maxJoinable" : "maxDetached";
    throw new AgentError(
      `Background task limit reached: ${running.ofKind} ${kind} tasks are running (${name} ${cap}).`,
    );
  }
}
