import { ApplicationFailure } from "@temporalio/common";
import { FAILURE_TYPES, type AgentActivities } from "../common/activity-types.js";
import { RegistryLookupError, type AgentRegistry } from "./agent-registry.js";
import { createCallModel } from "./call-model.js";
import { createExecuteTool } from "./execute-tool.js";
import type { DeltaTransport } from "../stream/delta-transport.js";

export { AgentRegistry, type ProviderEntry, type ProviderMap } from "./agent-registry.js";

/** The activities of the session workflow, bound to what this worker can run. */
export function createActivities(registry: AgentRegistry, transport?: DeltaTransport): AgentActivities {
  return {
    callModel: createCallModel(registry, transport),
    executeTool: createExecuteTool(registry),
    async resolveAgent(agent: string) {
      try {
        return registry.plan(agent);
      } catch (error) {
        if (error instanceof RegistryLookupError)
          throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.unknownAgent);
        throw error;
      }
    },
  };
}
