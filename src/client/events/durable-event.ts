import type { EVENTS_TOPIC, StreamEntry } from "../../contract/stream/stream-entry.js";
import type { AgentEvent } from "../../kernel/vocabulary/events.js";

/**
 * An event of a durable run, with its place in the session stream (resume from `offset + 1`). Live output (model
 * text and reasoning, a tool's own events) has a `deltaId` and the offset of the event before it; every other event
 * is an entry of the stream, with an offset of its own.
 */
export type DurableEvent = AgentEvent & { offset: number; runId: string; deltaId?: string };

/** One entry of the session stream, decoded; a tool's event placed among them carries its id (`deltaId`). */
export type SessionStreamItem = {
  topic: typeof EVENTS_TOPIC;
  offset: number;
  entry: StreamEntry;
  deltaId?: string;
};
