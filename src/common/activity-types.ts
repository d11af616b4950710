import type { AgentPlan } from "./agent-plan.js";
import type { AssistantMessage } from "../kernel/messages.js";
import type { ModelRequest, Usage } from "../kernel/model.js";
import type { ToolCall } from "../kernel/tools.js";

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
  /** Publish text and reasoning live through the worker's stream transport (passthrough codecs). */
  stream?: boolean;
}

/** Output of the `callModel` activity: the complete assistant message, which the workflow records and replays. */
export interface CallModelOutput {
  message: AssistantMessage;
  usage: Usage;
}

/** Input of the `executeTool` activity. */
export interface ExecuteToolInput {
  agent: string;
  sessionId: string;
  runId: string;
  turn: number;
  call: ToolCall;
}

/** Output of the `executeTool` activity. */
export interface ExecuteToolOutput {
  content: string;
  isError?: boolean;
}

/** The activities the session workflow calls. */
export interface AgentActivities {
  callModel(input: CallModelInput): Promise<CallModelOutput>;
  executeTool(input: ExecuteToolInput): Promise<ExecuteToolOutput>;
  resolveAgent(agent: string): Promise<AgentPlan>;
}

/** ApplicationFailure types the activities raise; the workflow maps them back. */
export const FAILURE_TYPES = {
  unknownAgent: "LiteAgent.UnknownAgent",
  unknownModel: "LiteAgent.UnknownModel",
  toolNotFound: "LiteAgent.ToolNotFound",
  requestUnavailable: "LiteAgent.RequestUnavailable",
  provider: "LiteAgent.ProviderError",
} as const;
