import type { ImageBlock, Message } from "../kernel/vocabulary/messages.js";

// The payloads of the session's updates and signals, and what `startRun` answers. They are recorded in histories
// and sent by clients on any build: a payload only gains optional fields (docs/decisions/0012).

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

/** An Ed25519 signature over a decision's canonical message (src/plan/decision-message.ts), hex encoded. */
export interface DecisionSignature {
  keyId: string;
  /** Unique per decision: a nonce the session saw before is refused. */
  nonce: string;
  signature: string;
}

/** A decision on a pending approval. */
export interface DecideToolCallRequest {
  callId: string;
  decision: "allow" | "deny";
  /** Who decided (shown in events and the audit trail). */
  actor?: string;
  reason?: string;
  signature?: DecisionSignature;
}

/** The payload of the `approve` / `deny` signals (the Temporal UI's signal form). */
export interface ApprovalSignal {
  callId: string;
  actor?: string;
  reason?: string;
  signature?: DecisionSignature;
}

/** An answer to a pending question. */
export interface AnswerQuestionRequest {
  callId: string;
  text?: string;
  selected?: string[];
  actor?: string;
  signature?: DecisionSignature;
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
