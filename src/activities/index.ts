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

export { AgentRegistry, type ProviderEntry, type ProviderMap } from "./agent-registry.js";

/** Options of {@link createActivities}. */
export interface ActivityOptions {
  /**
   * Secret values scrubbed from every error text and tool result the activities return, besides
   * `OPENAI_API_KEY`, `TEMPORAL_API_KEY` and the keys providers declare (see `declareSecrets`).
   */
  secrets?: Iterable<string>;
  /** The worker's payload storage: where `archiveTranscript` writes the transcripts compaction removes. */
  storage?: ExternalStorage;
  /** The worker's payload codecs (encryption): transcript blobs go through them as other payloads do. */
  payloadCodecs?: readonly PayloadCodec[];
  /** The worker's connections to MCP servers (closed with the worker); a pool of their own when omitted. */
  mcpPool?: McpConnectionPool;
}

/** The secrets a worker scrubs by default: the API keys in its environment. */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): (string | undefined)[] {
  return [env.OPENAI_API_KEY, env.TEMPORAL_API_KEY];
}

/** The activities of the session workflow, bound to what this worker can run. */
export function createActivities(
  registry: AgentRegistry,
  transport?: DeltaTransport,
  options: ActivityOptions = {},
): AgentActivities {
  const scrubber = new SecretScrubber([...environmentSecrets(), ...(options.secrets ?? [])]);
  const mcpPool = options.mcpPool ?? new McpConnectionPool();
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
