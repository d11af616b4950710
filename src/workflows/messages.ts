import { defineQuery, defineSignal, defineUpdate } from "@temporalio/workflow";
import type { ImageBlock, Message } from "../kernel/messages.js";
import type { ModelRequest, Usage } from "../kernel/model.js";
import type { RunResult } from "../kernel/events.js";
import type { BudgetOverrun } from "../kernel/budget.js";
import type { TranscriptSegmentRef } from "../common/transcript-ledger.js";
import type { ApproverSet } from "../common/approver-rules.js";

// Wire names are persisted in histories and sent by clients to sessions on any build: they stay frozen
// (docs/versioning.md, "What stays compatible across builds").

/** Starts (queues) a run in a session. */
export interface StartRunRequest {
  /** Chosen by the client so retries are idempotent; the workflow makes one when absent. */
  runId?: string;
  /** The agent the session runs; must match the session's. */
  agent: string;
  input: string | Message[];
  images?: ImageBlock[];
}

/** Where the run's events begin in the session stream. */
export interface StartRunResult {
  runId: string;
  /** The stream offset at which the run was queued; its events come at or after it. */
  offset: number;
}

/** A steering message. `id` makes delivery idempotent (signals are at least once). */
export interface SteerRequest {
  id: string;
  content: string | Message;
}

/** A steer or follow-up queued through the validated update. */
export interface QueueSteerRequest extends SteerRequest {
  kind: "steer" | "followUp";
}

/** Cancels the current run (or the given one, queued or running). */
export interface CancelRunRequest {
  runId?: string;
  reason?: string;
}

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
}

/** A decision on a pending approval. */
export interface DecideToolCallRequest {
  callId: string;
  decision: "allow" | "deny";
  /** Who decided (shown in events and the audit trail). */
  actor?: string;
  reason?: string;
}

/** The payload of the `approve` / `deny` signals (the Temporal UI's signal form). */
export interface ApprovalSignal {
  callId: string;
  actor?: string;
  reason?: string;
}

/** An answer to a pending question. */
export interface AnswerQuestionRequest {
  callId: string;
  text?: string;
  selected?: string[];
  actor?: string;
}

/** A tool's fork (`ctx.fork` in an activity): the call that asks, the fork's input and id, and its tools' names. */
export interface StartForkRequest {
  callId: string;
  input: string;
  forkId: string;
  tools?: string[];
}

/** Interrupts the in-flight model call; the optional message is steered in first. */
export interface InterruptRequest {
  id?: string;
  content?: string;
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
}

/** Asks for a page of the session's transcript: the unarchived messages from `from` (default 0) on. */
export interface TranscriptPageRequest {
  from?: number;
}

/**
 * A page of the session's transcript: every archived segment (small references; read them through the payload
 * storage), then the current conversation's messages that are not archived (`tail`, messages `from` to `end` of
 * `total`; at most about 1 MB a page). `compactions` changes when the session compacts: a reader that sees it
 * change between pages starts over.
 */
export interface TranscriptPage {
  segments: TranscriptSegmentRef[];
  compactions: number;
  tail: Message[];
  from: number;
  end: number;
  total: number;
}

/** The outcome of a run, as the session remembers it. */
export interface RunSummary {
  runId: string;
  stopReason: string;
  text: string;
  usage: Usage;
}

/**
 * The failure type of an update the session refused only because its workflow task held other work
 * (src/workflows/update-admission.ts): nothing of it was applied; send it again with the same update id.
 */
export const SESSION_BUSY = "LiteAgent.SessionBusy";

export const startRunUpdate = defineUpdate<StartRunResult, [StartRunRequest]>("startRun");
export const queueSteerUpdate = defineUpdate<void, [QueueSteerRequest]>("queueSteer");
export const cancelRunUpdate = defineUpdate<{ cancelled: string[] }, [CancelRunRequest]>("cancelRun");
export const closeSessionUpdate = defineUpdate<void, []>("closeSession");
export const steerSignal = defineSignal<[SteerRequest]>("steer");
export const followUpSignal = defineSignal<[SteerRequest]>("followUp");
export const cancelRunSignal = defineSignal<[CancelRunRequest]>("cancel");
export const decideToolCallUpdate = defineUpdate<
  { callId: string; decision: "allow" | "deny" },
  [DecideToolCallRequest]
>("decideToolCall");
export const approveSignal = defineSignal<[ApprovalSignal]>("approve");
export const denySignal = defineSignal<[ApprovalSignal]>("deny");
export const answerQuestionUpdate = defineUpdate<{ callId: string }, [AnswerQuestionRequest]>(
  "answerQuestion",
);
export const answerSignal = defineSignal<[AnswerQuestionRequest]>("answer");
export const interruptUpdate = defineUpdate<{ interrupted: boolean }, [InterruptRequest]>("interruptRun");
export const interruptSignal = defineSignal<[InterruptRequest]>("interrupt");
/** A tool running in an activity starts a fork of the agent (`ctx.fork`): a child session; resolves with its end. */
export const startForkUpdate = defineUpdate<RunResult, [StartForkRequest]>("startFork");
/**
 * Does nothing but give the session a workflow task. Temporal tells a pinned session that a new build is its target
 * only in a workflow task, and an idle session has none until its next message: a rollout sends this to the
 * sessions left on the old build so they move now (docs/operations.md, "Rollout").
 */
export const wakeSignal = defineSignal<[]>("wake");
/**
 * Does nothing: a client sends it when an update was refused as busy twice with no new event in the session's history
 * between the refusals, so that the history has an event between a finished task and the update's next attempt
 * (src/workflows/update-admission.ts). Its jobs count as no work.
 */
export const taskBoundarySignal = defineSignal<[]>("taskBoundary");
export const sessionStatusQuery = defineQuery<SessionStatus>("sessionStatus");
export const runSummaryQuery = defineQuery<RunSummary | undefined, [string]>("runSummary");
/** The model request of an in-flight model call, by key: the model activity reads it instead of carrying it. */
export const modelRequestQuery = defineQuery<ModelRequest | undefined, [string]>("modelRequest");
export const sessionTranscriptQuery = defineQuery<TranscriptPage, [TranscriptPageRequest?]>(
  "sessionTranscript",
);

/**
 * What each signal, update and query does and takes, by wire name: the Temporal UI shows these next to its
 * "Send a Signal" / update / query forms (they are served by the workflow's metadata query).
 */
export const HANDLER_DESCRIPTIONS = {
  startRun:
    "Queues a run: {agent, input, runId?, images?}. The agent must be the session's. Returns {runId, offset}.",
  queueSteer: 'Queues a steer or follow-up: {kind: "steer" | "followUp", id, content}. Deduplicated by id.',
  cancelRun: "Cancels the running run, or the given one: {runId?, reason?}. Returns the ids cancelled.",
  closeSession: "Closes the session: queued runs finish, then the workflow completes. No input.",
  steer: 'Steers the next turn: {"id": "unique", "content": "..."}. Deduplicated by id.',
  followUp: 'Follows up when the model would stop: {"id": "unique", "content": "..."}. Deduplicated by id.',
  cancel: 'Cancels the running run, or a queued one: {} or {"runId": "...", "reason": "..."}.',
  decideToolCall:
    'Decides a pending approval: {callId, decision: "allow" | "deny", actor?, reason?}. Refused when the call is unknown or settled, or the actor is not among its approvers.',
  approve:
    'Allows a pending tool call: {"callId": "...", "actor": "...", "reason": "..."} (see Current Details; an actor who is not among its approvers is listed and ignored).',
  deny: 'Denies a pending tool call: {"callId": "...", "actor": "...", "reason": "..."} (see Current Details; an actor who is not among its approvers is listed and ignored).',
  answerQuestion:
    "Answers a pending question: {callId, text?, selected?, actor?}. Refused when unknown or settled.",
  answer:
    'Answers a pending question: {"callId": "...", "text": "..."} or {"callId": "...", "selected": ["..."]}.',
  interruptRun:
    "Cancels the in-flight model call and re-plans: {id?, content?}. Returns whether a call was interrupted.",
  interrupt: 'Cancels the in-flight model call and re-plans: {} or {"content": "steer first"}.',
  startFork:
    "Used by a tool's ctx.fork: {callId, input, forkId, tools?} starts a fork of the agent as a child session and returns its result. Refused unless that tool call is running.",
  wake: "Does nothing but wake the session: after a rollout, an idle session moves to the new current build. No input.",
  taskBoundary:
    "Does nothing: a client sends it when an update was refused twice as busy with no new event between, to separate the update from finished work. No input.",
  sessionStatus:
    "The session: status, current run, pending approvals and questions, queue, usage, rejected inputs.",
  runSummary: "A finished run's outcome, by run id: {runId, stopReason, text, usage}.",
  sessionTranscript:
    "The transcript: archived segment references, then unarchived messages from {from?} (paged, about 1 MB).",
  modelRequest: "The model request of an in-flight model call, by key (read by the callModel activity).",
} as const;
