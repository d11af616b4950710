import type { ToolEventBatch } from "./stream/tool-event-batch.js";
import type { AgentPlan, DurableToolPlan } from "./agent-plan.js";
import type { AssistantMessage, Message } from "../kernel/vocabulary/messages.js";
import type { ModelRequest, ModelStopReason, Usage } from "../kernel/vocabulary/model.js";
import type { ToolCall } from "../kernel/vocabulary/tools.js";
import type { TranscriptSegmentRef } from "./transcript-state.js";
import type { McpServerUnavailable } from "./mcp-server-unavailable.js";

/** Input of the `callModel` activity. */
export interface CallModelInput {
  agent: string;
  model: string;
  runId: string;
  turn: number;
  /** The key under which the workflow serves the request (`modelRequest` query): history stays small. */
  requestKey: string;
  /** The request itself, when the plan passes requests inline. */
  request?: ModelRequest;
  /**
   * The request as a change of an earlier one of the run: the first `base.count` messages of request `base.key`, then
   * `appended`; other fields as the earlier one's, with `changed` set and `unset` removed. A worker without the
   * earlier request reads the whole by query. Keeps each call's input small however long the conversation.
   */
  delta?: ModelRequestDelta;
  /** Publish text and reasoning live through the worker's stream transport (passthrough codecs). */
  stream?: boolean;
}

/** A model request as the change of an earlier request of the same run (see `CallModelInput.delta`). */
export interface ModelRequestDelta {
  base: { key: string; count: number };
  appended: Message[];
  changed: Partial<Omit<ModelRequest, "messages">>;
  unset?: string[];
}

/** Output of the `callModel` activity: the complete assistant message, which the workflow records and replays. */
export interface CallModelOutput {
  message: AssistantMessage;
  usage: Usage;
  /** Why the model stopped, when the provider said (absent in histories recorded before it was carried). */
  stopReason?: ModelStopReason;
  /**
   * The worker's clock (ms since the epoch) as the call completed. Recorded with the result, so the session reads
   * it back on every replay as the live run did, unlike its own clock (the session's progress clock, ADR 0014).
   * Absent in histories recorded before it was carried.
   */
  completedAt?: number;
}

/** Input of the `executeTool` activity. */
export interface ExecuteToolInput {
  agent: string;
  sessionId: string;
  runId: string;
  turn: number;
  call: ToolCall;
  /** The tool gets no `ctx.fork`: it runs in a fork's or a subagent's session (one level of forks). */
  noFork?: true;
}

/** Output of the `executeTool` activity. */
export interface ExecuteToolOutput {
  content: string;
  isError?: boolean;
  /**
   * The last window of the events the tool emitted (at most 32 KiB of them, docs/decisions/0021), absent when it
   * emitted none: the session keeps it in memory for readers; the run never sees it.
   */
  toolEvents?: ToolEventBatch;
}

/** Input of the `archiveTranscript` activity: the messages a compaction is about to remove, in order. */
export interface ArchiveTranscriptInput {
  sessionId: string;
  /** The number of this segment in the session (0 for the first compaction). */
  segment: number;
  messages: Message[];
}

/** Input of the `runEffect` activity: one `ctx.effect` call of a middleware. */
export interface RunEffectInput {
  agent: string;
  sessionId: string;
  effect: string;
  input: unknown;
}

/** Input of the `listMcpTools` activity: one MCP server of an agent. */
export interface ListMcpToolsInput {
  agent: string;
  server: string;
}

/**
 * Result of the `listMcpTools` activity: the server's allowed tools as tool plans, or why the run goes without them
 * (the server did not answer, or its breaker on that worker is open). Never retried by Temporal for that.
 */
export type ListMcpToolsOutput = { tools: DurableToolPlan[] } | { unavailable: McpServerUnavailable };

/** Input of the `callMcpTool` activity: one call of an MCP tool (`tool` is its name on the server). */
export interface CallMcpToolInput extends ExecuteToolInput {
  server: string;
  tool: string;
}

/** The activities the session workflow calls. */
export interface AgentActivities {
  callModel(input: CallModelInput): Promise<CallModelOutput>;
  executeTool(input: ExecuteToolInput): Promise<ExecuteToolOutput>;
  resolveAgent(agent: string): Promise<AgentPlan>;
  /** Writes a transcript segment through the worker's payload storage; a reference without `key` when it has none. */
  archiveTranscript(input: ArchiveTranscriptInput): Promise<TranscriptSegmentRef>;
  /** Runs an effect a middleware asked for; its result is recorded in the history. */
  runEffect(input: RunEffectInput): Promise<unknown>;
  /** Lists an MCP server's allowed tools as tool plans; the result is the run's recorded tool list. */
  listMcpTools(input: ListMcpToolsInput): Promise<ListMcpToolsOutput>;
  /** Calls one tool of an MCP server over the worker's pooled connection. */
  callMcpTool(input: CallMcpToolInput): Promise<ExecuteToolOutput>;
}

/** ApplicationFailure types the activities raise; the workflow maps them back. */
export const FAILURE_TYPES = {
  unknownAgent: "LiteAgent.UnknownAgent",
  unknownModel: "LiteAgent.UnknownModel",
  toolNotFound: "LiteAgent.ToolNotFound",
  effectNotFound: "LiteAgent.EffectNotFound",
  requestUnavailable: "LiteAgent.RequestUnavailable",
  provider: "LiteAgent.ProviderError",
  /** An MCP server ended (or its connection broke) during a call: retried only for idempotent tools. */
  mcpConnectionLost: "LiteAgent.McpConnectionLost",
  /** An MCP server could not be started, reached or listed. */
  mcpUnavailable: "LiteAgent.McpUnavailable",
} as const;
