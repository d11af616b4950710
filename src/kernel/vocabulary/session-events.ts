import type { Message, ToolResultBlock } from "./messages.js";
import type { AgentEventOf } from "./events.js";
import type { ContextView } from "../context/types.js";

/** The persisted unit of a session's log. */
export type SessionEvent =
  | { type: "user"; message: Message }
  | { type: "assistant"; message: Message }
  | { type: "tool_started"; id: string; name: string; turn: number }
  | { type: "tool_result"; result: ToolResultBlock; turn: number }
  | {
      type: "file_snapshot";
      path: string;
      before: string | null;
      truncated?: boolean;
      encoding?: "utf8" | "base64";
      turn: number;
    }
  | {
      type: "artifact_verified";
      path: string;
      revision?: string;
      command: string;
      result: string;
      turn: number;
    }
  | (Omit<AgentEventOf<"permission_decision">, "type"> & { type: "permission_decision"; turn: number })
  | { type: "summary"; messages: Message[]; throughSeq: number; before: number; after: number }
  | { type: "context_view"; view: ContextView; throughSeq: number };

/** A session event with its place in the log. */
export interface StoredEvent {
  /** 1-based, monotonic. */
  seq: number;
  sessionId: string;
  /** `seq - 1`, or null for the first event. */
  parentSeq: number | null;
  /** ISO timestamp. */
  ts: string;
  event: SessionEvent;
}

/** A session known to a checkpointer. */
export interface SessionInfo {
  id: string;
  /** Last modification, ms since the epoch. */
  mtime: number;
}

/** An append-only, per-session event log with optimistic concurrency. */
export interface Checkpointer {
  /** Appends events; throws CheckpointConflictError when `expectedHead` is given and differs. Returns the new head. */
  append(sessionId: string, events: SessionEvent[], expectedHead?: number): Promise<number>;
  /** Reads events in seq order, after `sinceSeq` (exclusive) when given. */
  read(sessionId: string, options?: { sinceSeq?: number }): AsyncIterable<StoredEvent>;
  /** The last seq, 0 when the session is empty. */
  head(sessionId: string): Promise<number>;
  /** Every session, most recently modified first. */
  list(): Promise<SessionInfo[]>;
  delete(sessionId: string): Promise<void>;
  /** Drops every event after `toSeq` (time travel). */
  truncate?(sessionId: string, toSeq: number): Promise<void>;
}
