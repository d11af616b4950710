import type { ImageBlock } from "../kernel/vocabulary/messages.js";
import type { StartRunResult } from "../contract/requests.js";

/** Options of a run started through a session handle (`client.session(id).start/run/send`). */
export interface SessionRunOptions {
  /** The session's agent; default: read from the session (which must exist then). */
  agent?: string;
  /** Makes a retried start idempotent. Default: a new id. */
  runId?: string;
  images?: ImageBlock[];
}

/** Options of a durable run started through the client (`client.start/run/send`). */
export interface DurableRunOptions extends Omit<SessionRunOptions, "agent"> {
  /** The session to run in; created on first use. Default: a new session. */
  sessionId?: string;
}

/** A started run: where its events are. */
export interface StartedRun extends StartRunResult {
  sessionId: string;
}
