import { ApplicationFailure, setHandler } from "@temporalio/workflow";
import { toolEventKey } from "../common/tool-event-batch.js";
import { toWireEvent, type StreamEntry } from "../common/wire-event.js";
import type { AgentEvent } from "../kernel/events.js";
import type { DeltaReceipt, StreamDelta } from "../stream/stream-delta.js";
import { EventLog, type EventLogState } from "./event-log.js";
import { LiveDeltas } from "./live-deltas.js";
import { LiveToolEvents } from "./live-tool-events.js";
import { streamCapture } from "./stream-capture.js";
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

/**
 * The most event bytes one `readStream` answer carries besides its first event, which comes whole however large
 * (an answer at or above the storage threshold, 128 KiB by default, travels by reference: ADR 0004).
 */
const MAX_READ_BYTES = 1024 * 1024;
/** The most of the event log kept in memory, and carried across continue-as-new. */
const MAX_KEPT_BYTES = 2 * 1024 * 1024;
const MAX_CARRIED_BYTES = 256 * 1024;
/**
 * The most one event counts toward {@link MAX_KEPT_BYTES}. Events are kept whole, and a large one (a long answer, a
 * big tool result, the `done` that repeats the run's messages) holds the conversation's own strings, not copies: it
 * costs memory as a small one does, and must not push out what readers have not read yet.
 */
const MAX_COUNTED_EVENT_BYTES = 64 * 1024;
/** How many runs' events stay readable in the session stream. */
const KEPT_RUNS_IN_STREAM = 3;

/**
 * After this many live-output batches with no reader asking for live output (half a second of output at the
 * publisher's pace), the rejection tells the publisher that nobody reads, and it sends less often. A following
 * client asks at least every 200 ms, so it never lets the count get this far.
 */
const UNREAD_AFTER_STORES = 10;

/** What the stream carries into the next execution: its log, and where its kept runs begin. */
export interface CarriedStream {
  log: EventLogState;
  keptRunOffsets: number[];
}

/** Where a model call's live output went, as its stream entries say (`StreamEntry.liveOutput`; `true`: unmarked). */
export type LiveOutputMark = true | NonNullable<StreamEntry["liveOutput"]>;

/**
 * The session's stream: its events in an offset-addressed log and the live output of model calls, both read by
 * the `readStream` query, so following a session writes nothing into its history (docs/decisions/0005). It also
 * decides what is kept: the events of the last few runs, in memory and across continue-as-new.
 */
export class SessionStream {
  private readonly log: EventLog;
  private readonly live = new LiveDeltas();
  private readonly toolEvents = new LiveToolEvents();
  /** Where each kept run's events begin, oldest first. */
  private readonly keptRunOffsets: number[];
  /**
   * Live-output batches stored since a reader last asked for live output. Memory only, changed by the query too:
   * it decides no command, only what the `publishDeltas` rejection tells the publisher (how often to send).
   */
  private storesSinceRead = 0;
  /** Activities in flight that may add to the stream without a history event. Memory only, read by the query. */
  private liveCalls = 0;
  /** Set only on the stream reader's replayer, which reads a lagging reader's entries from history. */
  private readonly capture = streamCapture();

  constructor(
    carried: Partial<CarriedStream> | undefined,
    private readonly isClosed: () => boolean,
  ) {
    this.log = new EventLog(carried?.log, MAX_COUNTED_EVENT_BYTES);
    this.keptRunOffsets = carried?.keptRunOffsets ?? [];
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

  /**
   * Notes an activity that may add live output or tool events to the stream while it runs (they reach the session
   * as rejected updates, not history events); call the returned function once it has ended. While none is in
   * flight, `readStream` says the stream is quiet.
   */
  openLiveCall(): () => void {
    this.liveCalls++;
    let open = true;
    return () => {
      if (open) this.liveCalls--;
      open = false;
    };
  }

  /** Appends a run's event, whole: readers get every value as the run produced it, however large. */
  publish(runId: string, event: AgentEvent, modelCall?: number, liveOutput: LiveOutputMark = true): void {
    const entry: StreamEntry = { runId, event: toWireEvent(event) };
    if (modelCall !== undefined) entry.modelCall = modelCall;
    if (modelCall !== undefined && liveOutput !== true) entry.liveOutput = liveOutput;
    const offset = this.log.append(entry);
    this.capture?.(offset, entry);
    this.noteToolBound(runId, event, offset);
    this.log.trimTo(MAX_KEPT_BYTES);
  }

  /** Memory only (read by queries), so it adds no command: readers place a call's tool events by these offsets. */
  private noteToolBound(runId: string, event: AgentEvent, offset: number): void {
    if (event.type === "tool_call_start")
      this.toolEvents.noteBound(toolEventKey(runId, event.turn, event.call.id), "start", offset);
    else if (event.type === "tool_call_end")
      this.toolEvents.noteBound(toolEventKey(runId, event.turn, event.id), "end", offset);
  }

  /**
   * Notes that a run's events begin at `runOffset`, and drops the events of runs older than the last
   * `KEPT_RUNS_IN_STREAM`, so memory and the continue-as-new input stay bounded. A reader behind what is kept reads
   * the entries it missed from the session's histories (`readEntriesFromHistory`, through `streamCapture`).
   */
  retainRun(runOffset: number): void {
    this.keptRunOffsets.push(runOffset);
    if (this.keptRunOffsets.length <= KEPT_RUNS_IN_STREAM) return;
    this.keptRunOffsets.shift();
    this.log.truncate(this.keptRunOffsets[0]!);
  }

  /**
   * The stream for the next execution: from the start of the run in progress (`runOffset`), else of the last run,
   * as much as fits (a reader that lags further reads the rest from this execution's history).
   */
  carry(runOffset: number | undefined): CarriedStream {
    const keepFrom = runOffset ?? this.keptRunOffsets.at(-1) ?? this.log.end;
    this.keptRunOffsets.splice(0, this.keptRunOffsets.length - 1);
    this.log.truncate(keepFrom);
    return { log: this.log.state(MAX_CARRIED_BYTES), keptRunOffsets: this.keptRunOffsets };
  }

  private read(request: ReadStreamRequest): ReadStreamResult {
    const from = typeof request.from === "number" && request.from >= 0 ? request.from : 0;
    const maxBytes = Math.min(request.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
    const page = this.log.read(from, maxBytes);
    const wantsDeltas = typeof request.deltas === "object" && request.deltas !== null;
    if (wantsDeltas) this.storesSinceRead = 0;
    const deltas = wantsDeltas ? this.live.read(request.deltas!) : [];
    const tools = request.tools && typeof request.tools === "object" ? request.tools : undefined;
    const toolEvents = tools ? this.toolEvents.read(tools) : [];
    return { ...page, deltas, toolEvents, closed: this.isClosed(), quiet: this.liveCalls === 0 };
  }

  private storeDeltas(batch: unknown): never {
    if (!Array.isArray(batch))
      throw ApplicationFailure.nonRetryable("publishDeltas: expected a list of deltas");
    this.live.store(batch.filter(isDelta));
    this.storesSinceRead++;
    const receipt: DeltaReceipt = { unread: this.storesSinceRead > UNREAD_AFTER_STORES };
    throw ApplicationFailure.create({
      message: "stored",
      type: DELTAS_STORED,
      nonRetryable: true,
      details: [receipt],
    });
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
