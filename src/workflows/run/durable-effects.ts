import { ActivityFailure, CancellationScope, isCancellation, proxyActivities } from "@temporalio/workflow";
import type { AgentActivities } from "../../contract/activity-types.js";
import type { AgentPlan } from "../../contract/agent-plan.js";
import type { EffectRef, EffectRunner } from "../../kernel/vocabulary/effects.js";
import { AbortError, errorMessage } from "../../kernel/vocabulary/errors.js";
import { effectActivityOptions } from "./activity-options.js";
import { applicationCause, isActivityTimeout } from "./failure-cause.js";

/**
 * Middleware's `ctx.effect` in a durable run: each call is one `runEffect` activity, retried by the effect's class, its
 * result in history. A failure reaches the middleware as an Error with the effect's message, a cancelled run as an
 * AbortError, and an at-most-once effect whose one attempt timed out as an Error saying it was not run again.
 */
export function durableEffects(plan: AgentPlan): EffectRunner {
  return async (ref, input, ctx) => {
    const { runEffect } = proxyActivities<AgentActivities>({
      ...effectActivityOptions(ref),
      summary: `effect ${ref.effect}`,
    });
    // The caller may stop waiting (the ContextEngine's planner timeout): then the activity is cancelled too.
    const scope = new CancellationScope();
    const cancel = () => scope.cancel();
    ctx.signal.addEventListener("abort", cancel, { once: true });
    try {
      if (ctx.signal.aborted) throw new AbortError(`effect ${ref.effect} cancelled`);
      return await scope.run(() =>
        runEffect({ agent: plan.name, sessionId: ctx.sessionId, effect: ref.effect, input }),
      );
    } catch (error) {
      if (error instanceof AbortError) throw error;
      if (isCancellation(error)) throw new AbortError(`effect ${ref.effect} cancelled`);
      if (ref.retry === "at-most-once" && isActivityTimeout(error)) throw new Error(interruptedEffect(ref));
      const message =
        applicationCause(error)?.message ??
        (error instanceof ActivityFailure && error.cause ? error.cause.message : errorMessage(error));
      throw new Error(`effect ${ref.effect} failed: ${message}`);
    } finally {
      ctx.signal.removeEventListener("abort", cancel);
    }
  };
}

/** Why an at-most-once effect's call ended without an answer: it may have acted, and it is not tried again. */
function interruptedEffect(ref: EffectRef): string {
  return (
    `effect ${ref.effect} was interrupted before it finished (its worker stopped, or it ran past its ` +
    `${ref.timeoutMs} ms timeout); it is at-most-once, so it was not run again and may or may not have taken effect`
  );
}
