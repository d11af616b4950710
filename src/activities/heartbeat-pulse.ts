import { Context } from "@temporalio/activity";

/**
 * Heartbeats at a third of the heartbeat timeout until stopped, so a dead worker is noticed within the timeout
 * and cancellation reaches a long activity (Temporal delivers it with heartbeat responses).
 */
export function startHeartbeatPulse(): () => void {
  const context = Context.current();
  const timeout = context.info.heartbeatTimeoutMs;
  if (!timeout) return () => undefined;
  const timer = setInterval(() => context.heartbeat(), Math.max(100, Math.floor(timeout / 3)));
  return () => clearInterval(timer);
}
