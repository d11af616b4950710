import type { ActivityOptions } from "@temporalio/workflow";
import type { DurableToolPlan, ModelRetryPlan } from "../../contract/agent-plan.js";
import { FAILURE_TYPES } from "../../contract/activity-types.js";
import type { EffectRef } from "../../kernel/vocabulary/effects.js";
import type { ToolRetryClass } from "../../kernel/vocabulary/tools.js";

/** Non-retryable provider statuses are marked non-retryable by the activity itself; these types never retry. */
const NEVER_RETRY = [
  FAILURE_TYPES.unknownAgent,
  FAILURE_TYPES.unknownModel,
  FAILURE_TYPES.toolNotFound,
  FAILURE_TYPES.effectNotFound,
];

/** Options of the model activity: the seed's `retry()` semantics as a Temporal retry policy. */
export function modelActivityOptions(retry: ModelRetryPlan): ActivityOptions {
  return {
    startToCloseTimeout: retry.timeoutMs,
    heartbeatTimeout: retry.heartbeatTimeoutMs,
    retry: {
      maximumAttempts: retry.maximumAttempts,
      initialInterval: retry.initialIntervalMs,
      maximumInterval: retry.maximumIntervalMs,
      backoffCoefficient: retry.backoffCoefficient,
      nonRetryableErrorTypes: NEVER_RETRY,
    },
  };
}

/**
 * Options of one tool activity. At-most-once tools get a single attempt, so a worker crash mid-call can never
 * run them twice; idempotent tools are retried with backoff (and receive a stable idempotency key).
 */
export function toolActivityOptions(tool: DurableToolPlan, activityId: string): ActivityOptions {
  const retry = retryOfClass(tool.retry);
  return {
    activityId,
    ...(tool.taskQueue !== undefined ? { taskQueue: tool.taskQueue } : {}),
    startToCloseTimeout: tool.timeoutMs,
    heartbeatTimeout: tool.heartbeatTimeoutMs,
    retry,
  };
}

/**
 * How long an effect's worker may stay silent: the activity heartbeats on its own (a third of this), so a dead
 * worker is noticed in seconds rather than at the effect's timeout, and a cancelled run's cancel reaches the effect.
 */
export const EFFECT_HEARTBEAT_TIMEOUT_MS = 10_000;

/** Options of one effect activity: retried by the effect's class, like a tool. */
export function effectActivityOptions(ref: EffectRef): ActivityOptions {
  return {
    startToCloseTimeout: ref.timeoutMs,
    heartbeatTimeout: Math.min(EFFECT_HEARTBEAT_TIMEOUT_MS, ref.timeoutMs),
    retry: retryOfClass(ref.retry),
  };
}

/**
 * Options of one `listMcpTools` activity. A server that fails or misses its listing deadline is a result (its
 * worker's breaker opens), not a failure, so it is never retried; the retries are for a worker lost mid-listing, and
 * the start-to-close timeout only bounds that (the worker's deadline, `listTimeoutMs`, ends an attempt first).
 */
export function mcpListActivityOptions(server: string): ActivityOptions {
  return {
    startToCloseTimeout: 120_000,
    retry: {
      maximumAttempts: 3,
      initialInterval: 1_000,
      backoffCoefficient: 2,
      nonRetryableErrorTypes: NEVER_RETRY,
    },
    summary: `mcp tools ${server}`,
  };
}

/** A single attempt for at-most-once work; backoff up to five attempts for idempotent work. */
function retryOfClass(retry: ToolRetryClass): NonNullable<ActivityOptions["retry"]> {
  if (retry !== "idempotent") return { maximumAttempts: 1 };
  return {
    maximumAttempts: 5,
    initialInterval: 1_000,
    backoffCoefficient: 2,
    maximumInterval: 30_000,
    nonRetryableErrorTypes: NEVER_RETRY,
  };
}
