import type { WorkflowStreamState } from "@temporalio/workflow-streams/workflow";
import type { ImageBlock, Message } from "../kernel/messages.js";
import type { Usage } from "../kernel/model.js";
import type { RunSummary } from "./messages.js";

/** A run waiting its turn in the session. */
export interface QueuedRun {
  runId: string;
  input: string | Message[];
  images?: ImageBlock[];
  offset: number;
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
  streamState?: WorkflowStreamState;
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
}

/** What a closed session returns. */
export interface SessionOutcome {
  sessionId: string;
  runsCompleted: number;
  turns: number;
  usage: Usage;
}
