import type { RunSnapshot } from "../kernel/run-snapshot.js";
import type { EventLogState } from "./event-log.js";
import type { ImageBlock, Message } from "../kernel/messages.js";
import type { Usage } from "../kernel/model.js";
import type {
  DecisionRecord,
  PendingApproval,
  PendingQuestion,
  RejectedDecision,
  RunSummary,
  SessionFailure,
} from "./messages.js";
import type { TranscriptState } from "../common/transcript-ledger.js";
import type { DurableToolPlan } from "../common/agent-plan.js";

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
}

/** What the approval board carries into the next execution. */
export interface CarriedDecisions {
  recent: DecisionRecord[];
  rejected: RejectedDecision[];
  /** The approvals a run paused in its tool phase waits for (`activeRun`), as the status lists them. */
  pendingApprovals?: PendingApproval[];
  /** The questions it waits for. */
  pendingQuestions?: PendingQuestion[];
}

/** The input of the session workflow. One workflow chain per session; its id is the session id. */
export interface SessionInput {
  sessionId: string;
  agent: string;
  /** Present after continue-as-new. */
  carried?: CarriedState;
  /** Pass model requests inline in activity inputs instead of by reference (benchmark comparison only). */
  inlineRequests?: boolean;
  /** Keep the AgentName/AgentStatus/AgentTurns/AgentTokens search attributes current (default true). */
  searchAttributes?: boolean;
  /**
   * A subagent's session (a child workflow the delegation tool started): it runs this one task as its first run,
   * then closes and returns the run's summary. It gets no delegation tool (one level of subagents).
   */
  task?: SubagentTask;
  /**
   * The conversation a new session starts with (a fork: another session's conversation at the end of one of its
   * turns). Only the first execution reads it; later ones carry the conversation (`carried`), so it is not passed on.
   */
  seed?: Message[];
  /** The session this one was forked from, and at the end of which of its turns (kept across continue-as-new). */
  forkedFrom?: ForkOrigin;
  /** The model the session's runs use instead of the agent's own (a fork onto another model). */
  model?: string;
}

/** Where a forked session comes from: the source session and the turn whose end state it starts with. */
export interface ForkOrigin {
  sessionId: string;
  turn: number;
}

/** The run id of a subagent session's one run. */
export const SUBAGENT_RUN_ID = "task";

/** The task of a subagent's session and where it came from. */
export interface SubagentTask {
  input: string;
  parentSessionId: string;
  forkId: string;
  /**
   * A tool's fork (`ctx.fork`) of the parent's own agent, seeded with the parent's conversation: it runs without
   * the agent's `beforeAgent` hooks (their effects are in the seed), with only the named tools when given.
   */
  fork?: { tools?: string[] };
}

/** What a closed session returns. */
export interface SessionOutcome {
  sessionId: string;
  runsCompleted: number;
  turns: number;
  usage: Usage;
  /** A subagent's session: how its task run ended. */
  task?: RunSummary;
}
