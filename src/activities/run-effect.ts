import { Context } from "@temporalio/activity";
import { ApplicationFailure } from "@temporalio/common";
import { FAILURE_TYPES, type RunEffectInput } from "../contract/activity-types.js";
import type { SecretScrubber } from "../wire/scrub-secrets.js";
import type { AnyEffectImplementation } from "../kernel/vocabulary/effects.js";
import { RegistryLookupError, type AgentRegistry } from "./agent-registry.js";
import { startHeartbeatPulse } from "./heartbeat-pulse.js";

/**
 * The `runEffect` activity: runs the implementation of an effect a middleware called (`ctx.effect`). Its result
 * goes into the history, so the workflow never runs it again on replay; a failure reaches the middleware as an
 * error, after the retries of the effect's class.
 */
export function createRunEffect(registry: AgentRegistry, scrubber: SecretScrubber) {
  return async function runEffect(input: RunEffectInput): Promise<unknown> {
    const effect = lookupEffect(registry, input);
    const stop = startHeartbeatPulse();
    try {
      const signal = Context.current().cancellationSignal;
      return await effect.run(input.input, { sessionId: input.sessionId, signal });
    } catch (error) {
      throw scrubber.scrubError(error);
    } finally {
      stop();
    }
  };
}

function lookupEffect(registry: AgentRegistry, input: RunEffectInput): AnyEffectImplementation {
  try {
    return registry.effect(input.agent, input.effect);
  } catch (error) {
    if (error instanceof RegistryLookupError)
      throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.effectNotFound);
    throw error;
  }
}
