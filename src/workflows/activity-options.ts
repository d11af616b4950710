import type { ActivityOptions } from "@temporalio/workflow";
import type { DurableToolPlan, ModelRetryPlan } from "../common/agent-plan.js";
import { FAILURE_TYPES } from "../common/activity-types.js";

/** Non-retryable provider statuses are marked non-retryable by the activity itself; these types never retry. */
const NEVER_RETRY = [FAILURE_TYPES.unknownAgent, FAILURE_TYPES.unknownModel, FAILURE_TYPES.toolNotFound];

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
  const retry =
    tool.retry === "idempotent"
      ? {
          maximumAttempts: 5,
          initialInterval: 1_000,
          backoffCoefficient: 2,
          maximumInterval: 30_000,
          nonRetryableErrorTypes: NEVER_RETRY,
        }
      : { maximumAttempts: 1 };
  return {
    activityId,
    ...(tool.taskQueue !== undefined ? { taskQueue: tool.taskQueue } : {}),
    startToCloseTimeout: tool.timeoutMs,
    heartbeatTimeout: tool.heartbeatTimeoutMs,
    retry,
  };
}
