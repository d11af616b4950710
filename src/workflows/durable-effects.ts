import { ActivityFailure, isCancellation, proxyActivities } from "@temporalio/workflow";
import type { AgentActivities } from "../common/activity-types.js";
import type { AgentPlan } from "../common/agent-plan.js";
import type { EffectRunner } from "../kernel/effects.js";
import { AbortError, errorMessage } from "../kernel/errors.js";
import { effectActivityOptions } from "./activity-options.js";
import { applicationCause } from "./failure-cause.js";

/**
 * Middleware's `ctx.effect` in a durable run: each call is one `runEffect` activity on the agent's queue, retried by
 * the effect's class, with its result in the history (a replay returns it without running the effect). A failure
 * reaches the middleware as an Error with the effect's own message; a cancelled run as an AbortError.
 */
export function durableEffects(plan: AgentPlan): EffectRunner {
  return async (ref, input, ctx) => {
    const { runEffect } = proxyActivities<AgentActivities>({
      ...effectActivityOptions(ref),
      summary: `effect ${ref.effect}`,
    });
    try {
      return await runEffect({ agent: plan.name, sessionId: ctx.sessionId, effect: ref.effect, input });
    } catch (error) {
      if (isCancellation(error)) throw new AbortError(`effect ${ref.effect} cancelled`);
      const message =
        applicationCause(error)?.message ??
        (error instanceof ActivityFailure && error.cause ? error.cause.message : errorMessage(error));
      throw new Error(`effect ${ref.effect} failed: ${message}`);
    }
  };
}
