import { setHandler } from "@temporalio/workflow";
import { toolEventKey } from "../../wire/tool-events.js";
import type { ToolEventBatch } from "../../contract/stream/tool-event-batch.js";
import { toWireEvent } from "../../wire/wire-conversion.js";
import type { StreamEntry } from "../../contract/stream/stream-entry.js";
import type { AgentEvent } from "../../kernel/vocabulary/events.js";
import { EventLog } from "./event-log.js";
import type { EventLogState } from "../../contract/stream/stream-entry.js";
import { LiveToolEvents } from "./live-tool-events.js";
import { streamCapture } from "./stream-capture.js";
import {
  readStreamQuery,
  type ReadStreamRequest,
  type ReadStreamResult,
} from "../../contract/stream/stream-messages.js";

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

/** What the stream carries into the next execution: its log, and where its kept runs begin. */
export interface CarriedStream {
  log: EventLogState;
  keptRunOffsets: number[];
}

/** Where a model call's live output went, as its stream entries say (`StreamEntry.liveOutput`; `true`: unmarked). */
export type LiveOutputMark = true | NonNullable<StreamEntry["liveOutput"]>;

/**
 * The session's stream: its events in an offset-addressed log plus the last events of recent tool calls, both read by
 * the `readStream` query so following writes nothing to history (ADRs 0005, 0019, 0021: live output and tool events
 * travel in heartbeats). It decides what is kept: the last few runs' events, in memory and across continue-as-new.
 */
export class SessionStream {
  private readonly log: EventLog;
  private readonly toolEvents = new LiveToolEvents();
  /** Where each kept run's events begin, oldest first. */
  private readonly keptRunOffsets: number[];
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
      description: "Reads the session's events from an offset, and tools' events after a cursor.",
    });
  }

  /** The next offset. */
  get end(): number {
    return this.log.end;
  }

  /**
   * Notes an activity that may heartbeat live output or tool events while it runs, without a history event; call the
   * returned function once it has ended. While none is in flight, `readStream` says the stream is quiet, and readers
   * neither ask again nor describe the session until its history grows.
   */
  openLiveCall(): () => void {
    this.liveCalls++;
    let open = true;
    return () => {
      if (open) this.liveCalls--;
      open = false;
    };
  }

  /**
   * Keeps the last window of a tool call's events, which its activity's result carried, for readers that have not
   * read them yet. Memory only, no command: call it before the run logs the call's end.
   */
  storeToolEvents(batch: ToolEventBatch): void {
    this.toolEvents.store(batch);
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
    const tools = request.tools && typeof request.tools === "object" ? request.tools : undefined;
    const toolEvents = tools ? this.toolEvents.read(tools) : [];
    const toolCallStarts = tools ? this.toolEvents.starts() : {};
    const live = { toolEvents, toolCallStarts, closed: this.isClosed(), quiet: this.liveCalls === 0 };
    return { ...page, deltas: [], ...live };
  }
}
