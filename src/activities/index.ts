import { ApplicationFailure } from "@temporalio/common";
import { FAILURE_TYPES, type AgentActivities } from "../contract/activity-types.js";
import { RegistryLookupError, type AgentRegistry } from "./agent-registry.js";
import type { ExternalStorage, PayloadCodec } from "@temporalio/common";
import { createArchiveTranscript } from "./archive-transcript.js";
import { createCallModel } from "./call-model.js";
import { createExecuteTool } from "./execute-tool.js";
import { createRunEffect } from "./run-effect.js";
import { createCallMcpTool, createListMcpTools } from "./mcp-activities.js";
import { McpConnectionPool } from "../mcp/mcp-connection-pool.js";
import type { DeltaTransport } from "../stream/delta-transport.js";
import { SecretScrubber } from "../wire/scrub-secrets.js";
import { scrubbedActivities } from "./scrubbed-activities.js";
import { environmentSecrets, mcpServerSecrets } from "../wire/known-secrets.js";

export { AgentRegistry, type ProviderEntry, type ProviderMap } from "./agent-registry.js";
export { environmentSecrets } from "../wire/known-secrets.js";

/** Options of {@link createActivities}. */
export interface ActivityOptions {
  /**
   * Secret values scrubbed from everything the activities return, heartbeat and stream, besides `OPENAI_API_KEY`,
   * `TEMPORAL_API_KEY`, the keys providers declare (see `declareSecrets`) and the agents' MCP headers and environments.
   */
  secrets?: Iterable<string>;
  /** The worker's payload storage: where `archiveTranscript` writes the transcripts compaction removes. */
  storage?: ExternalStorage;
  /** The worker's payload codecs (encryption): transcript blobs go through them as other payloads do. */
  payloadCodecs?: readonly PayloadCodec[];
  /** The worker's connections to MCP servers (closed with the worker); a pool of their own when omitted. */
  mcpPool?: McpConnectionPool;
  /** The scrubber to use (the worker shares it with its MCP breakers' log); else {@link workerScrubber}'s. */
  scrubber?: SecretScrubber;
}

/** A scrubber over the environment's keys, the given secrets and the agents' MCP headers and environments. */
export function workerScrubber(registry: AgentRegistry, secrets: Iterable<string> = []): SecretScrubber {
  return new SecretScrubber([
    ...environmentSecrets(process.env),
    ...secrets,
    ...mcpServerSecrets(registry.mcpServerConfigs()),
  ]);
}

/** The activities of the session workflow, bound to what this worker can run. */
export function createActivities(
  registry: AgentRegistry,
  transport?: DeltaTransport,
  options: ActivityOptions = {},
): AgentActivities {
  const scrubber = options.scrubber ?? workerScrubber(registry, options.secrets);
  const mcpPool = options.mcpPool ?? new McpConnectionPool();
  return scrubbedActivities(createUnscrubbed(registry, transport, options, scrubber, mcpPool), scrubber);
}

/** The activities as they run, before their results and failures are scrubbed. */
function createUnscrubbed(
  registry: AgentRegistry,
  transport: DeltaTransport | undefined,
  options: ActivityOptions,
  scrubber: SecretScrubber,
  mcpPool: McpConnectionPool,
): AgentActivities {
  return {
    callModel: createCallModel(registry, transport, scrubber),
    executeTool: createExecuteTool(registry, scrubber),
    archiveTranscript: createArchiveTranscript(options.storage, options.payloadCodecs),
    runEffect: createRunEffect(registry, scrubber),
    listMcpTools: createListMcpTools(registry, mcpPool, scrubber),
    callMcpTool: createCallMcpTool(registry, mcpPool, scrubber),
    async resolveAgent(agent: string) {
      try {
        // Recorded with the plan, so the session decides on it deterministically (and on replay, as it did).
        return { ...registry.plan(agent), liveOutput: transport?.kind ?? "none", resolvedAt: Date.now() };
      } catch (error) {
        if (error instanceof RegistryLookupError)
          throw ApplicationFailure.nonRetryable(error.message, FAILURE_TYPES.unknownAgent);
        throw error;
      }
    },
  };
}
