import type { RunSnapshot } from "../kernel/vocabulary/run-snapshot.js";
import type { ImageBlock, Message } from "../kernel/vocabulary/messages.js";
import type { Usage } from "../kernel/vocabulary/model.js";
import type { DurableToolPlan, SkillDiagnostic } from "./agent-plan.js";
import type { McpServerUnavailable } from "./mcp-server-unavailable.js";
import type { EventLogState } from "./stream/stream-entry.js";
import type {
  DecisionRecord,
  PendingApproval,
  PendingQuestion,
  RejectedDecision,
  SessionFailure,
} from "./session-status.js";
import type { RunSummary } from "./run-summary.js";
import type { TranscriptState } from "./transcript-state.js";

// Carried in the continue-as-new input, so recorded in histories: fields are only ever added, optional.

/** A run waiting its turn in the session. */
export interface QueuedRun {
  runId: string;
  input: string | Message[];
  images?: ImageBlock[];
  offset: number;
}

/**
 * A run paused to continue as new, at a turn boundary or while its turn's open calls wait for a person (its snapshot's
 * `toolPhase`; the waits travel in `CarriedState.decisions`); the next execution goes on with it first.
 */
export interface SuspendedRun {
  run: QueuedRun;
  snapshot: RunSnapshot;
  /**
   * Where the run's own messages begin in the snapshot: the session's conversation when it started, or after the
   * run's last compaction, the length of the compacted form.
   */
  historyLength: number;
  /** Model calls made so far (the next one is numbered after them, so live-output keys stay unique). */
  modelCalls: number;
  /** The MCP tools the run was listed at its start: it keeps them, not a new listing (absent before MCP tools). */
  mcpTools?: DurableToolPlan[];
}

/** What a session carries across continue-as-new: the folded conversation and everything in flight. */
export interface CarriedState {
  messages: Message[];
  queue: QueuedRun[];
  seenSignalIds: string[];
  pendingSteers: { steers: Message[]; followUps: Message[] };
  runsCompleted: number;
  turns: number;
  usage: Usage;
  summaries: RunSummary[];
  /** Stream offsets where the most recent runs begin (older entries are truncated). */
  keptRunOffsets?: number[];
  /** The event log's newest entries and its base offset. */
  log?: EventLogState;
  /** The run in progress, when the session continued as new in the middle of it. */
  activeRun?: SuspendedRun;
  /** Why the last run failed, while the session shows `failed`. */
  failure?: SessionFailure;
  /** The transcript archive's references and how much of `messages` (or the active run's) they cover. */
  transcript?: TranscriptState;
  /** The last decisions and ignored decision signals, so the status and details keep listing them. */
  decisions?: CarriedDecisions;
  /** The skill files the last run's plan left out, so the status keeps naming them (absent when none were). */
  skillDiagnostics?: SkillDiagnostic[];
  /** The MCP servers the last run went without, so the status keeps naming them (absent when none). */
  mcpUnavailable?: McpServerUnavailable[];
}

/** What the approval board carries into the next execution. */
export interface CarriedDecisions {
  recent: DecisionRecord[];
  rejected: RejectedDecision[];
  /** The approvals a run paused in its tool phase waits for (`activeRun`), as the status lists them. */
  pendingApprovals?: PendingApproval[];
  /** The questions it waits for. */
  pendingQuestions?: PendingQuestion[];
  /** The nonces of the signed decisions taken, so a signature brought again is still refused. */
  nonces?: string[];
}
