import { WorkflowNotFoundError, type Client } from "@temporalio/client";
import { EVENTS_TOPIC } from "../../contract/stream/stream-entry.js";
import { Channel } from "../../kernel/vocabulary/channel.js";
import type { DeltaCursor } from "../../stream/live-deltas.js";
import type { StreamDelta } from "../../contract/stream/stream-delta.js";
import { readStreamQuery, type ReadStreamResult } from "../../contract/stream/stream-messages.js";
import type { ToolEventCursor } from "../../contract/stream/tool-event-batch.js";
import type { LoggedEntry } from "../../contract/stream/stream-entry.js";
import type { MergeInput } from "./external-delta-merge.js";
import { HistoryWait } from "./history-wait.js";
import { LiveOutputReader, type LiveRead } from "./live-output-reader.js";
import { parseToolEventId, placeToolEvents, startedWindows } from "./place-tool-events.js";
import { StreamHistoryError } from "./stream-history-error.js";
import type { StreamHistoryOptions } from "./stream-history.js";

/**
 * Pauses between reads: after live output (more is likely soon), after events only (a turn's come together), and the
 * longest while nothing happens or every read brings events (each then takes a batch of turns). Each read is a query
 * the worker answers while the workflow's next task waits, so reads are spaced by what they can bring (ADR 0014).
 */
const FAST_POLL_MS = 25;
const EVENT_POLL_MS = 100;
const SLOW_POLL_MS = 200;
/** How long a session may stay unreadable (a worker restarting, continue-as-new, a server blip) before giving up. */
const UNREADABLE_GIVE_UP_MS = 5 * 60_000;
const KEPT_CURSOR_KEYS = 8;
/** How long one read may take before it is asked again. */
const QUERY_DEADLINE_MS = 2_000;

/** Where a {@link SessionStreamReader} starts, what it reads, and when it must stop. */
export interface SessionStreamReaderOptions {
  /** The first event offset to read. */
  from: number;
  /** Whether to read live output through Temporal (the model activities' heartbeats; false when Redis carries it). */
  withDeltas: boolean;
  /** The id of the last live delta seen, when resuming. */
  fromDeltaId?: string | undefined;
  /** Aborted when the client that reads is closed. */
  clientClosed?: AbortSignal | undefined;
  /** How to read entries the session no longer keeps from its history (its payloads' converter, middleware modules). */
  history?: StreamHistoryOptions | undefined;
}

/**
 * Reads a session's events by the `readStream` query plus, while calls are in flight, heartbeat live output and tool
 * events ({@link LiveOutputReader}); adds nothing to its history (ADRs 0005, 0019, 0021). Follows continue-as-new,
 * waits on history while quiet ({@link HistoryWait}), reads entries no longer kept from history (gone: `events_lost`).
 */
export class SessionStreamReader {
  /** Each read's live deltas, then its events: a call's text always comes before the call's end. */
  readonly items = new Channel<MergeInput>();
  private readonly controller = new AbortController();
  private readonly cursor: DeltaCursor = {};
  /** How many events of each tool call were handed on, from heartbeats or results alike (docs/decisions/0021). */
  private readonly toolCursor: ToolEventCursor = {};
  private readonly done: Promise<void>;
  private readonly history: HistoryWait;
  private readonly live: LiveOutputReader;

  private from: number;
  private readonly withDeltas: boolean;
  private readonly historyOptions: StreamHistoryOptions;
  /** The session's next offset, as its last read said. */
  logEnd = 0;

  constructor(
    private readonly temporal: Client,
    readonly sessionId: string,
    options: SessionStreamReaderOptions,
  ) {
    this.from = options.from;
    this.withDeltas = options.withDeltas;
    this.historyOptions = options.history ?? {};
    // Tool events travel in heartbeats whatever carries model output; with Redis, model output is read there.
    this.live = new LiveOutputReader(temporal, sessionId, options.withDeltas);
    this.history = new HistoryWait(temporal, sessionId);
    if (options.fromDeltaId) this.restoreCursor(options.fromDeltaId);
    this.stopWhenClosed(options.clientClosed);
    this.done = this.loop().then(
      () => this.end(),
      (error: unknown) => this.end(error),
    );
  }

  /** The first failure that ended reading, if any. */
  failure: unknown;

  /** Stops reading. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.done;
  }

  private async loop(): Promise<void> {
    const handle = this.temporal.workflow.getHandle(this.sessionId);
    let pause = FAST_POLL_MS;
    let brought: Fresh = "nothing";
    let unreadableSince: number | undefined;
    while (!this.controller.signal.aborted) {
      let page: ReadStreamResult;
      let missed: LoggedEntry[] = [];
      let live: LiveRead = NOTHING_LIVE;
      try {
        // A query that meets a continue-as-new (or a dying worker) may never be answered: ask again instead.
        page = await this.temporal.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () =>
          handle.query(readStreamQuery, { from: this.from, tools: this.toolCursor }),
        );
        live = await this.readLive(page);
        if (page.base > this.from) missed = await this.readMissed(page.base);
        unreadableSince = undefined;
      } catch (error) {
        const fatal = error instanceof WorkflowNotFoundError || error instanceof StreamHistoryError;
        if (fatal || this.controller.signal.aborted) throw error;
        unreadableSince ??= Date.now();
        if (Date.now() - unreadableSince > UNREADABLE_GIVE_UP_MS) throw error;
        await sleep(SLOW_POLL_MS, this.controller.signal);
        continue;
      }
      this.logEnd = page.end;
      for (const item of missed) this.items.push({ kind: "event", item: { topic: EVENTS_TOPIC, ...item } });
      this.from = Math.max(this.from, page.base);
      const fresh = maxFresh(this.accept(page, live), missed.length > 0 ? "events" : "nothing");
      if (page.closed && this.from >= page.end) return;
      pause = nextPause(fresh, pause, brought);
      brought = fresh;
      // Nothing new and nothing in flight that could send any: only a history event can change the stream.
      if (fresh === "nothing" && page.quiet === true && this.history.usable) {
        await this.history.next(this.controller.signal);
        pause = FAST_POLL_MS;
        continue;
      }
      await sleep(pause, this.controller.signal);
    }
  }

  /**
   * The entries from the reader's offset up to `base` (where what the session keeps begins), read from its
   * histories, with each range whose history is gone as one `events_lost` entry (at the range's last offset).
   */
  private async readMissed(base: number): Promise<LoggedEntry[]> {
    const range = { from: this.from, to: base };
    // Loaded when first needed, as the fork's reader: a client that never falls behind never loads the replayer.
    const { readEntriesFromHistory } = await import("./stream-history.js");
    const { items, lost } = await readEntriesFromHistory(
      this.temporal,
      this.sessionId,
      range,
      this.historyOptions,
    );
    const gaps = lost.map(({ from, to }) => ({
      offset: to - 1,
      entry: { runId: "", event: { type: "events_lost" as const, from, to } },
    }));
    return [...items, ...gaps].sort((a, b) => a.offset - b.offset);
  }

  /**
   * The live output after the cursor and the tool events in flight, read after the page only while it says calls are
   * in flight (absent in older sessions: read). A call whose end is in the page has none left, so nothing follows its
   * end. A side channel: a describe that fails brings nothing this time, and the events go on.
   */
  private async readLive(page: ReadStreamResult): Promise<LiveRead> {
    if (page.quiet === true) return NOTHING_LIVE;
    // With model output elsewhere (Redis), only a tool call in flight has anything to describe.
    if (!this.withDeltas && Object.keys(page.toolCallStarts ?? {}).length === 0) return NOTHING_LIVE;
    return this.live.read(this.cursor).catch(() => NOTHING_LIVE);
  }

  /** Queues what the read brought (its live output first); returns what was new in it. */
  private accept(page: ReadStreamResult, { deltas, toolEvents }: LiveRead): Fresh {
    let fresh: Fresh = "nothing";
    for (const delta of deltas) {
      if (delta.text === "") continue;
      const seen = (this.cursor[delta.key] ??= {});
      const end = delta.at + delta.text.length;
      seen[delta.kind] = Math.max(seen[delta.kind] ?? 0, end);
      this.items.push({ kind: "delta", id: deltaId(delta.key, delta.kind, end), delta });
      fresh = "output";
    }
    this.forgetOldKeys();
    const batches = [...(page.toolEvents ?? []), ...startedWindows(toolEvents, page.toolCallStarts)];
    const entries = placeToolEvents(page.items, batches, this.from, this.toolCursor);
    for (const item of entries) {
      const deltaId = item.deltaId === undefined ? {} : { deltaId: item.deltaId };
      this.items.push({
        kind: "event",
        item: { topic: EVENTS_TOPIC, offset: item.offset, entry: item.entry, ...deltaId },
      });
      this.from = Math.max(this.from, item.offset + 1);
      if (fresh === "nothing") fresh = "events";
    }
    return fresh;
  }

  /**
   * A closed client cannot read again: end at once with an error instead of retrying for minutes against a shut
   * connection (and keeping the process alive with the retry timers).
   */
  private stopWhenClosed(closed: AbortSignal | undefined): void {
    const stop = () => {
      this.failure ??= new Error(`the AgentClient was closed while reading session '${this.sessionId}'`);
      this.controller.abort();
    };
    if (closed?.aborted) return stop();
    closed?.addEventListener("abort", stop, { once: true });
    // One client reads many streams: a finished one must not stay subscribed to it.
    this.detachFromClient = () => closed?.removeEventListener("abort", stop);
  }

  private detachFromClient: () => void = () => undefined;

  /** Where a resumed reader goes on: after the last live output or tool event it saw (its `deltaId`). */
  private restoreCursor(id: string): void {
    const toolEvent = parseToolEventId(id);
    if (toolEvent) {
      this.toolCursor[toolEvent.key] = toolEvent.seen;
      return;
    }
    const [key, kind, end] = id.split("|");
    if (key && (kind === "text" || kind === "reasoning") && Number.isFinite(Number(end))) {
      this.cursor[key] = { [kind]: Number(end) };
    }
  }

  private forgetOldKeys(): void {
    const tools = Object.keys(this.toolCursor);
    for (const key of tools.slice(0, Math.max(0, tools.length - 8 * KEPT_CURSOR_KEYS)))
      delete this.toolCursor[key];
    const keys = Object.keys(this.cursor);
    for (const key of keys.slice(0, Math.max(0, keys.length - KEPT_CURSOR_KEYS))) delete this.cursor[key];
  }

  private end(error?: unknown): void {
    this.detachFromClient();
    if (error !== undefined && !this.controller.signal.aborted) this.failure = error;
    this.items.close();
  }
}

const NOTHING_LIVE: LiveRead = { deltas: [], toolEvents: [] };

/** The id of a piece of live output: its call, its kind and where it ends (a resumed reader goes on from there). */
export function deltaId(key: string, kind: StreamDelta["kind"], end: number): string {
  return `${key}|${kind}|${end}`;
}

/** What a read brought: live output (and perhaps events), events only, or nothing new. */
export type Fresh = "output" | "events" | "nothing";

function maxFresh(a: Fresh, b: Fresh): Fresh {
  return a === "output" || b === "output"
    ? "output"
    : a === "events" || b === "events"
      ? "events"
      : "nothing";
}

/**
 * The pause before the next read: short while output comes; after events, longer, and longer again while every read
 * brings events (a busy session's turns come faster than anyone reads them: each read takes all since the last);
 * growing while nothing happens.
 */
export function nextPause(fresh: Fresh, previous: number, before: Fresh = "nothing"): number {
  if (fresh === "output") return FAST_POLL_MS;
  if (fresh === "events") return before === "events" ? Math.min(SLOW_POLL_MS, previous * 2) : EVENT_POLL_MS;
  return Math.min(SLOW_POLL_MS, Math.round(previous * 1.5));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
