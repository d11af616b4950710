import { ApplicationFailure, setHandler } from "@temporalio/workflow";
import { toolEventKey } from "../common/tool-event-batch.js";
import { toWireEvent, type StreamEntry } from "../common/wire-event.js";
import type { AgentEvent } from "../kernel/events.js";
import type { StreamDelta } from "../stream/stream-delta.js";
import { boundedEvent } from "./bounded-event.js";
import { EventLog, type EventLogState } from "./event-log.js";
import { LiveDeltas } from "./live-deltas.js";
import { LiveToolEvents } from "./live-tool-events.js";
import { isToolEventBatch } from "./tool-event-check.js";
import {
  DELTAS_STORED,
  TOOL_EVENTS_STORED,
  publishDeltasUpdate,
  publishToolEventsUpdate,
  readStreamQuery,
  type ReadStreamRequest,
  type ReadStreamResult,
} from "./stream-messages.js";

/** The most event bytes one `readStream` answer carries (far below Temporal's 2 MB payload limit). */
const MAX_READ_BYTES = 1024 * 1024;
/** The most of the event log kept in memory, and carried across continue-as-new. */
const MAX_KEPT_BYTES = 2 * 1024 * 1024;
const MAX_CARRIED_BYTES = 256 * 1024;

/**
 * The session's stream: its events in an offset-addressed log and the live output of model calls, both read by
 * the `readStream` query, so following a session writes nothing into its history (docs/decisions/0005).
 */
export class SessionStream {
  private readonly log: EventLog;
  private readonly live = new LiveDeltas();
  private readonly toolEvents = new LiveToolEvents();

  constructor(
    state: EventLogState | undefined,
    private readonly isClosed: () => boolean,
  ) {
    this.log = new EventLog(state);
    setHandler(readStreamQuery, (request) => this.read(request ?? {}), {
      description: "Reads the session's events from an offset, and live model output after a cursor.",
    });
    setHandler(publishDeltasUpdate, () => undefined, {
      description: "Used by the model activity: stores live output, answered by a rejection (no history).",
      validator: (batch: unknown) => this.storeDeltas(batch),
    });
    setHandler(publishToolEventsUpdate, () => undefined, {
      description: "Used by the tool activity: stores a tool's events, answered by a rejection (no history).",
      validator: (batch: unknown) => this.storeToolEvents(batch),
    });
  }

  /** The next offset. */
  get end(): number {
    return this.log.end;
  }

  /** Appends a run's event (bounded in size: the whole event stays in history and the run's result). */
  publish(runId: string, event: AgentEvent, modelCall?: number, liveOutput = true): void {
    const entry: StreamEntry = { runId, event: boundedEvent(toWireEvent(event)) };
    if (modelCall !== undefined) entry.modelCall = modelCall;
    if (modelCall !== undefined && !liveOutput) entry.liveOutput = false;
    this.log.append(entry);
    this.noteToolBound(runId, event, this.log.end - 1);
    this.log.trimTo(MAX_KEPT_BYTES);
  }

  /** Memory only (read by queries), so it adds no command: readers place a call's tool events by these offsets. */
  private noteToolBound(runId: string, event: AgentEvent, offset: number): void {
    if (event.type === "tool_call_start")
      this.toolEvents.noteBound(toolEventKey(runId, event.turn, event.call.id), "start", offset);
    else if (event.type === "tool_call_end")
      this.toolEvents.noteBound(toolEventKey(runId, event.turn, event.id), "end", offset);
  }

  /** Drops the entries before `offset`. */
  truncate(offset: number): void {
    this.log.truncate(offset);
  }

  /** The log for the next execution: what a reader may still need, from `keepFrom` on where it fits. */
  carry(keepFrom: number): EventLogState {
    this.log.truncate(keepFrom);
    this.log.trimTo(MAX_CARRIED_BYTES);
    return this.log.state();
  }

  private read(request: ReadStreamRequest): ReadStreamResult {
    const from = typeof request.from === "number" && request.from >= 0 ? request.from : 0;
    const maxBytes = Math.min(request.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
    const page = this.log.read(from, maxBytes);
    const deltas = request.deltas && typeof request.deltas === "object" ? this.live.read(request.deltas) : [];
    const tools = request.tools && typeof request.tools === "object" ? request.tools : undefined;
    const toolEvents = tools ? this.toolEvents.read(tools) : [];
    return { ...page, deltas, toolEvents, closed: this.isClosed() };
  }

  private storeDeltas(batch: unknown): never {
    if (!Array.isArray(batch))
      throw ApplicationFailure.nonRetryable("publishDeltas: expected a list of deltas");
    this.live.store(batch.filter(isDelta));
    throw ApplicationFailure.create({ message: "stored", type: DELTAS_STORED, nonRetryable: true });
  }

  private storeToolEvents(batch: unknown): never {
    if (!isToolEventBatch(batch))
      throw ApplicationFailure.nonRetryable("publishToolEvents: expected a batch of tool events");
    this.toolEvents.store(batch);
    throw ApplicationFailure.create({ message: "stored", type: TOOL_EVENTS_STORED, nonRetryable: true });
  }
}

function isDelta(value: unknown): value is StreamDelta {
  const delta = value as StreamDelta | null;
  return (
    typeof delta === "object" &&
    delta !== null &&
    typeof delta.key === "string" &&
    typeof delta.attempt === "number" &&
    (delta.kind === "text" || delta.kind === "reasoning") &&
    typeof delta.at === "number" &&
    typeof delta.text === "string"
  );
}
