import type { AgentError } from "./errors.js";
import type { AssistantMessage, Message } from "./messages.js";
import type { Usage } from "./model.js";
import type { ToolCall, ToolResult } from "./tool-calls.js";
import type { Decision, UserAnswer, UserQuestion } from "../permission/types.js";
import type { BackgroundCompletion } from "../background/background-completion.js";

export type { Decision };

/** Why a run ended. `error` is a fatal provider or codec failure (see docs/decisions/0002). */
export type StopReason = "stop" | "aborted" | "max_turns" | "error" | "budget";

/** Why a turn ended. */
export type TurnStopReason = "stop" | "tool_use" | "max_tokens" | "interrupted";

/** What a run returns. */
export interface RunResult {
  messages: Message[];
  /** The text of the last assistant message. */
  text: string;
  usage: Usage;
  stopReason: StopReason;
}

/** Who made a permission decision. */
export type DecisionSource = "policy" | "user" | "auto";

/** The status of a ContextEngine pass, reported when it acted (level > 0). */
export interface ContextStatus {
  sessionId: string;
  level: number;
  reason: string;
  beforeTokens: number;
  afterTokens: number;
  generation: number;
  plannerUsed: boolean;
  plannerFallback: boolean;
  plannerLatencyMs: number;
  archiveRefs: string[];
  retry: boolean;
}

/** The body of every event a run yields. */
export type AgentEventBody =
  | { type: "turn_start"; turn: number }
  | { type: "model_call_start"; turn: number; model: string }
  | { type: "model_call_end"; turn: number; model: string; durationMs: number; usage?: Usage; error?: string }
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "message"; message: AssistantMessage }
  | { type: "tool_use"; call: ToolCall }
  | { type: "tool_call_start"; call: ToolCall; turn: number }
  | { type: "tool_call_end"; id: string; name: string; turn: number; durationMs: number; isError: boolean }
  | { type: "tool_recovered"; id: string; name: string; turn: number }
  | { type: "tool_result"; result: ToolResult }
  | {
      type: "permission_decision";
      call: ToolCall;
      decision: Decision;
      ruleId?: string;
      reason?: string;
      simulated?: boolean;
      by: DecisionSource;
      /** Who decided, when a person did (durable approvals). */
      actor?: string;
      /** When a person decided, ms since the epoch (in-process: the clock; durable: workflow time). */
      at?: number;
      /** The approver key that signed the decision, when it was signed (durable approvals). */
      keyId?: string;
    }
  | { type: "approval_request"; call: ToolCall; reason?: string }
  | {
      type: "approval_resolved";
      id: string;
      decision: "allow" | "deny";
      by: DecisionSource;
      actor?: string;
      reason?: string;
      /** When a person decided, ms since the epoch (in-process: the clock; durable: workflow time). */
      at?: number;
      /** The approver key that signed the decision, when it was signed (durable approvals). */
      keyId?: string;
    }
  | { type: "input_request"; call: ToolCall; question: UserQuestion }
  | { type: "input_resolved"; id: string; answer: UserAnswer }
  | { type: "steer"; messages: Message[] }
  | {
      /** The run reached a limit of its budget before a model call: it ends with stop reason `budget`. */
      type: "budget_exceeded";
      limit: "run_tokens" | "session_tokens" | "run_cost" | "session_cost";
      used: number;
      max: number;
    }
  | {
      /**
       * A subagent the delegation tool started (`start`) or that finished (`end`, with its status and usage). Its
       * own events carry `forkId`; durable clients read them from the child session `sessionId` into this stream.
       */
      type: "subagent";
      phase: "start" | "end";
      forkId: string;
      sessionId: string;
      agent: string;
      status?: SubagentStatus;
      usage?: Usage;
    }
  | {
      type: "compaction";
      kind: "micro" | "auto" | "manual";
      before: number;
      after: number;
      phase?: "start" | "done";
    }
  | ({ type: "context_status" } & ContextStatus)
  | { type: "background_completed"; completion: BackgroundCompletion }
  | { type: "diagnostic"; level: "info" | "warning" | "error"; code: string; message: string }
  | {
      /**
       * Durable readers only: the session's events at stream offsets `from` to `to` (exclusive) can no longer be
       * read (the history of the execution that published them was deleted, e.g. by retention). Its `offset` is
       * `to - 1`: the reader goes on at `to`. Never a silent gap: a reader gets every other event exactly once.
       */
      type: "events_lost";
      from: number;
      to: number;
    }
  | { type: "turn_end"; turn: number; stopReason: TurnStopReason }
  | { type: "error"; error: AgentError; fatal: boolean }
  | { type: "done"; reason: StopReason; result: RunResult };

/**
 * An event of a run. `agentId` marks events forwarded from a subagent; `forkId` marks events of a fork.
 */
export type AgentEvent = AgentEventBody & { agentId?: string; forkId?: string };

/** The event types, as a union of string literals. */
export type AgentEventType = AgentEvent["type"];

/** The event of one type. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** How a subagent ended: `failed` also when it ran out of turns or answered nothing. */
export type SubagentStatus = "completed" | "failed" | "cancelled";
