import { Context } from "@temporalio/activity";

/**
 * Heartbeats at a third of the heartbeat timeout until stopped, so a dead worker is noticed and cancellation reaches a
 * long activity. `beat` sends one heartbeat (default: no details); an activity whose details carry something must
 * pass one that repeats them, since each heartbeat's details replace the previous ones.
 */
export function startHeartbeatPulse(beat?: () => void): () => void {
  const context = Context.current();
  const timeout = context.info.heartbeatTimeoutMs;
  if (!timeout) return () => undefined;
  const pulse = beat ?? (() => context.heartbeat());
  const timer = setInterval(pulse, Math.max(100, Math.floor(timeout / 3)));
  return () => clearInterval(timer);
}
