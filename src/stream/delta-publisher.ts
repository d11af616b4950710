import { DEFAULT_BATCH_MS, type DeltaSink } from "./stream-delta.js";
import type { StreamDelta } from "../contract/stream/stream-delta.js";

/** Tuning of a {@link DeltaPublisher}; every field has a default. */
export interface DeltaPublisherOptions {
  /** How long output is gathered before a batch is sent. Default {@link DEFAULT_BATCH_MS}. */
  batchMs?: number;
  /**
   * Whether `end()` appends an end marker (clients merging another source wait for it): `always` (default), only
   * `after-output` (a call that pushed nothing then sends nothing at all), or `never`. `true`/`false` mean always/never.
   */
  endMarker?: EndMarkerPolicy | boolean;
  /** Characters held while the sink is failing; beyond it the oldest are dropped (and counted). Default 1 MB. */
  maxBufferedChars?: number;
  /** First pause after a failed send; doubles up to `maxRetryMs`. Default 100 ms. */
  initialRetryMs?: number;
  /** Longest pause between retries. Default 2 s. */
  maxRetryMs?: number;
  /** A send that has not settled by then counts as failed (it is retried; the sink may see it twice). Default 15 s. */
  sendTimeoutMs?: number;
  /** How long `end()` waits for what is left to be stored. Default 3 s. */
  endDeadlineMs?: number;
  /** How long `close()` waits for the sink to close. Default 2 s. */
  closeDeadlineMs?: number;
}

/** How one send ended: stored, or failed. */
interface SendOutcome {
  error?: unknown;
}

/** When a model call's output ends with an end marker (see {@link DeltaPublisherOptions.endMarker}). */
export type EndMarkerPolicy = "always" | "after-output" | "never";

/** What became of a publisher's output, for a log line. */
export interface DeltaPublisherStats {
  /** Batches the sink stored. */
  sentBatches: number;
  /** Sends that rejected or timed out (each was retried). */
  failedSends: number;
  /** Characters dropped because the buffer was full while the sink was failing. */
  droppedChars: number;
  /** Characters never stored: dropped, or still buffered when the publisher gave up. */
  lostChars: number;
  /** The last send failure. */
  lastError?: unknown;
}

const DEFAULTS = {
  maxBufferedChars: 1_000_000,
  initialRetryMs: 100,
  maxRetryMs: 2_000,
  sendTimeoutMs: 15_000,
  endDeadlineMs: 3_000,
  closeDeadlineMs: 2_000,
};

/**
 * Batches one model-call attempt's deltas at most `batchMs` apart, merging consecutive same-kind pieces. A side channel
 * that never blocks or fails the call: `push` never waits; failed sends retry in order while the call lasts, the buffer
 * bounded by `maxBufferedChars` (oldest text dropped); `end`/`close` wait briefly, never throw. Sinks may see repeats.
 */
export class DeltaPublisher {
  private pending: StreamDelta[] = [];
  private pendingChars = 0;
  private readonly offsets = { text: 0, reasoning: 0 };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private stopped = false;
  private ending = false;
  private inFlightChars = 0;
  private readonly options: Required<Omit<DeltaPublisherOptions, "batchMs" | "endMarker">>;
  private readonly batchMs: number;
  private readonly endMarker: EndMarkerPolicy;
  private readonly counts: DeltaPublisherStats = {
    sentBatches: 0,
    failedSends: 0,
    droppedChars: 0,
    lostChars: 0,
  };

  constructor(
    private readonly sink: DeltaSink,
    private readonly origin: { key: string; attempt: number },
    options: DeltaPublisherOptions = {},
  ) {
    this.batchMs = options.batchMs ?? DEFAULT_BATCH_MS;
    const marker = options.endMarker ?? "always";
    this.endMarker = marker === true ? "always" : marker === false ? "never" : marker;
    this.options = {
      maxBufferedChars: options.maxBufferedChars ?? DEFAULTS.maxBufferedChars,
      initialRetryMs: options.initialRetryMs ?? DEFAULTS.initialRetryMs,
      maxRetryMs: options.maxRetryMs ?? DEFAULTS.maxRetryMs,
      sendTimeoutMs: options.sendTimeoutMs ?? DEFAULTS.sendTimeoutMs,
      endDeadlineMs: options.endDeadlineMs ?? DEFAULTS.endDeadlineMs,
      closeDeadlineMs: options.closeDeadlineMs ?? DEFAULTS.closeDeadlineMs,
    };
  }

  /** Queues a piece of output; never waits and never throws. */
  push(kind: StreamDelta["kind"], text: string): void {
    if (text === "" || this.stopped) return;
    const last = this.pending.at(-1);
    if (last && last.kind === kind && !last.end) last.text += text;
    else this.pending.push({ ...this.origin, kind, at: this.offsets[kind], text });
    this.offsets[kind] += text.length;
    this.pendingChars += text.length;
    this.bound();
    if (!this.loop) this.timer ??= setTimeout(() => this.flush(), this.batchMs);
  }

  /**
   * Sends what is queued (and the end marker, when the transport wants one) and waits until it is stored, or
   * `endDeadlineMs` at most. Resolves true when everything was stored; never rejects.
   */
  async end(): Promise<boolean> {
    if (this.stopped) return false;
    const output = this.offsets.text > 0 || this.offsets.reasoning > 0;
    if (this.endMarker === "always" || (this.endMarker === "after-output" && output))
      this.pending.push({ ...this.origin, kind: "text", at: this.offsets.text, text: "", end: true });
    // No more pacing, and retry at once rather than after the current pause: the deadline counts.
    this.ending = true;
    this.wake?.();
    const delivered = await withDeadline(this.drain(), this.options.endDeadlineMs, false);
    this.stop();
    return delivered;
  }

  /** Stops sending (after `end`, or when the attempt failed) and releases the sink; waits a short deadline at most. */
  async close(): Promise<void> {
    this.stop();
    const closing = Promise.resolve()
      .then(() => this.sink.close())
      .catch(() => undefined);
    await withDeadline(closing, this.options.closeDeadlineMs, undefined);
  }

  /** What became of the output so far. */
  stats(): DeltaPublisherStats {
    const unsent = this.stopped ? this.pendingChars + this.inFlightChars : 0;
    return { ...this.counts, lostChars: this.counts.droppedChars + unsent };
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.wake?.();
  }

  /** Starts the sender if it is idle; a running sender takes what is queued when its current send settles. */
  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.loop || this.pending.length === 0 || this.stopped) return;
    this.loop = this.run().finally(() => {
      this.loop = undefined;
      // Output queued while the sender was finishing goes with the next batch.
      if (this.pending.length > 0 && !this.stopped && !this.ending)
        this.timer ??= setTimeout(() => this.flush(), this.batchMs);
    });
  }

  /** Resolves true once everything queued is stored, false when stopped first. */
  private async drain(): Promise<boolean> {
    for (;;) {
      this.flush();
      const loop = this.loop;
      if (!loop) return this.pending.length === 0 && !this.stopped;
      await loop;
    }
  }

  /**
   * One sender at a time, so batches keep their order; a failed batch goes back in front of newer output and
   * is retried with backoff until it is stored or the publisher stops. Successive batches stay `batchMs` apart.
   */
  private async run(): Promise<void> {
    let pause = this.options.initialRetryMs;
    while (this.pending.length > 0 && !this.stopped) {
      const batch = this.pending;
      const chars = this.pendingChars;
      this.pending = [];
      this.pendingChars = 0;
      this.inFlightChars = chars;
      const startedAt = Date.now();
      const { error } = await this.trySend(batch);
      this.inFlightChars = 0;
      if (error === undefined) {
        this.counts.sentBatches++;
        pause = this.options.initialRetryMs;
        const wait = this.batchMs - (Date.now() - startedAt);
        if (this.pending.length > 0 && !this.ending && wait > 0) await this.sleep(wait);
        continue;
      }
      this.counts.failedSends++;
      this.counts.lastError = error;
      this.pending = mergeBatches(batch, this.pending);
      this.pendingChars += chars;
      this.bound();
      await this.sleep(this.ending ? this.options.initialRetryMs : pause);
      pause = Math.min(this.options.maxRetryMs, pause * 2);
    }
  }

  /** Sends one batch; resolves with the failure (a rejection, a throw, or a timeout), if any. */
  private async trySend(batch: StreamDelta[]): Promise<SendOutcome> {
    let timeout: ReturnType<typeof setTimeout> | undefined;
    // A copy: a retry re-merges the batch, and the sink may still hold the array of a send that timed out.
    const sending = Promise.resolve()
      .then(() => this.sink.send(batch.map((delta) => ({ ...delta }))))
      .then(
        (): SendOutcome => ({}),
        (error: unknown): SendOutcome => ({ error: error ?? new Error("delta sink send failed") }),
      );
    const timedOut = new Promise<SendOutcome>((resolve) => {
      timeout = setTimeout(
        () =>
          resolve({ error: new Error(`delta sink send timed out after ${this.options.sendTimeoutMs} ms`) }),
        this.options.sendTimeoutMs,
      );
    });
    try {
      return await Promise.race([sending, timedOut]);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** Waits `ms`, or until woken (by `end` or `stop`). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  /** Drops the oldest text beyond `maxBufferedChars`, keeping offsets right (readers see a gap, not a shift). */
  private bound(): void {
    let excess = this.pendingChars - this.options.maxBufferedChars;
    while (excess > 0 && this.pending.length > 0) {
      const oldest = this.pending[0]!;
      const cut = Math.min(excess, oldest.text.length);
      oldest.text = oldest.text.slice(cut);
      oldest.at += cut;
      excess -= cut;
      this.pendingChars -= cut;
      this.counts.droppedChars += cut;
      if (oldest.text === "" && !oldest.end) this.pending.shift();
      else if (cut === 0) break;
    }
  }
}

/** A failed batch followed by what was queued meanwhile, merging the seam when it is the same kind. */
function mergeBatches(failed: StreamDelta[], newer: StreamDelta[]): StreamDelta[] {
  const merged = failed.map((delta) => ({ ...delta }));
  for (const delta of newer) {
    const last = merged.at(-1);
    if (
      last &&
      !last.end &&
      !delta.end &&
      last.kind === delta.kind &&
      last.at + last.text.length === delta.at
    )
      last.text += delta.text;
    else merged.push(delta);
  }
  return merged;
}

/** The promise's value, or `fallback` when it has not settled within `ms`. */
async function withDeadline<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
