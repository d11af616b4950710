import type { Usage } from "../kernel/vocabulary/model.js";
import type { BudgetOverrun } from "../kernel/vocabulary/budget.js";
import type { SkillDiagnostic } from "./agent-plan.js";
import type { McpServerUnavailable } from "./mcp-server-unavailable.js";
import type { ApproverSet, SigningSettings } from "./approvers.js";

// The answer of the `sessionStatus` query and its parts (pending calls, decisions, failures). Clients of any build
// read it: fields are only added, optional (docs/decisions/0012).

/** A tool call waiting for a person's decision. */
export interface PendingApproval {
  callId: string;
  runId: string;
  tool: string;
  /** The call's input, redacted; a clipped JSON string when its JSON exceeds 2,000 characters. */
  input: unknown;
  reason?: string;
  /** Workflow time, ms since the epoch. */
  requestedAt: number;
  /** When the approval times out, ms since the epoch. */
  expiresAt: number;
  /** Set by the client for a subagent's approval: the subagent session it waits in (answer it through either). */
  sessionId?: string;
  /** Who may decide it, when the plan's `approvers` name the tool; anyone may otherwise. */
  approvers?: ApproverSet;
  /** The keys a signed decision is checked against, and whether one must be signed (absent: no keys declared). */
  signing?: SigningSettings;
}

/** A decision the session took: who, why, when, and how it came (update or signal). */
export interface DecisionRecord {
  callId: string;
  tool: string;
  decision: "allow" | "deny";
  actor?: string;
  reason?: string;
  /** Workflow time of the decision, ms since the epoch. */
  at: number;
  via: "update" | "signal";
  /** Whether the decision was signed (absent from records kept before signatures); `keyId` names the key. */
  signed?: boolean;
  keyId?: string;
}

/** A decision signal the session ignored, with why (an actor who may not decide, an unknown call, …). */
export interface RejectedDecision {
  callId: string;
  tool?: string;
  decision: "allow" | "deny";
  actor?: string;
  reason?: string;
  /** Workflow time of the signal, ms since the epoch. */
  at: number;
  /** The key the signal said it was signed with, if any. */
  keyId?: string;
  /** Why it was ignored (at most 300 characters). */
  why: string;
}

/** A question waiting for the user's answer. */
export interface PendingQuestion {
  callId: string;
  runId: string;
  question: string;
  options?: string[];
  multiSelect?: boolean;
  requestedAt: number;
  expiresAt: number;
  /** Set by the client for a subagent's question: the subagent session it waits in. */
  sessionId?: string;
  /** The keys a signed answer is checked against, and whether one must be signed, as for approvals. */
  signing?: SigningSettings;
}

/** Why the session's last run failed. */
export interface SessionFailure {
  runId: string;
  /** The run's fatal error (at most 1,000 characters). */
  message: string;
  /** The session cannot run at all (its agent is unknown to the workers): it closed. */
  terminal?: boolean;
}

/** The last run ended at a limit of its agent's budget (from its `budget_exceeded` event). */
export interface BudgetStop extends BudgetOverrun {
  runId: string;
}

/** A subagent's session (a child workflow) that the session's current run is waiting for. */
export interface ActiveSubagent {
  sessionId: string;
  agent: string;
  forkId: string;
}

/** The session's state, for clients, the CLI and the Temporal UI. */
export interface SessionStatus {
  sessionId: string;
  agent: string;
  /**
   * Also the `AgentStatus` search attribute. `failed`: the last run ended with an error (see `failure`), until a
   * later run ends otherwise, or for good when the session's agent is unknown (the session then closed).
   */
  status: "idle" | "running" | "awaiting_approval" | "awaiting_input" | "failed" | "closed";
  /** The run in progress: its turn, and the stream offset its events begin at (absent from older workers). */
  currentRun?: { runId: string; turn: number; offset?: number };
  /** Why the last run failed, while the status is `failed`. */
  failure?: { runId: string; message: string };
  /** Subagent sessions running (their approvals are answered in those sessions, or through this one). */
  subagents?: ActiveSubagent[];
  /** What the session's usage cost, when the agent's budget prices its model (per million tokens, its currency). */
  cost?: number;
  /** The last run stopped at a budget limit; cleared when a later run ends otherwise. */
  budgetStop?: BudgetStop;
  /** The session's detached background tasks (a subagent group started with `run_in_background`), done or not. */
  backgroundTasks?: { id: string; label: string; done: boolean }[];
  pendingApprovals: PendingApproval[];
  pendingQuestions: PendingQuestion[];
  /** Ids of the queued runs, in order (the first 100). */
  queuedRuns: string[];
  /** A forked session: the session and turn it was forked from (`client.fork`). */
  forkedFrom?: { sessionId: string; turn: number };
  /** The model the session runs on instead of its agent's (a fork onto another model). */
  model?: string;
  runsCompleted: number;
  turns: number;
  usage: Usage;
  messageCount: number;
  /** The next stream offset. */
  offset: number;
  /**
   * Signals that were ignored because their payload was malformed or undecodable, with the reason (newest last, at
   * most 10, each at most 300 characters).
   */
  rejectedSignals: string[];
  /** The last decisions taken (newest last, at most 10); absent from sessions started before they were kept. */
  recentDecisions?: DecisionRecord[];
  /** Decision signals that were ignored, with why (newest last, at most 10); absent as `recentDecisions`. */
  rejectedDecisions?: RejectedDecision[];
  /** The skill files the last run's plan left out, each with the error; absent when none were. */
  skillDiagnostics?: SkillDiagnostic[];
  /**
   * The MCP servers the last run went without, each with its breaker on the worker that listed it (open until when,
   * the last error); absent when the run had every server's tools.
   */
  mcpUnavailable?: McpServerUnavailable[];
}
