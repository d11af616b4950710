import type { ToolEventBatch } from "../common/tool-event-batch.js";
import type { WireEvent } from "../common/wire-event.js";

/** Where a {@link ToolEventPublisher} sends its batches (the session, by a rejected update). */
export type ToolEventSend = (batch: ToolEventBatch) => Promise<void>;

/** Tuning of a {@link ToolEventPublisher}; every field has a default. */
export interface ToolEventPublisherOptions {
  /** How long events are gathered before a batch is sent. Default 50 ms. */
  batchMs?: number;
  /** First pause after a failed send; doubles up to 2 s. Default 100 ms. */
  retryMs?: number;
  /** How long `end()` waits for what is left to be stored. Default 3 s. */
  endDeadlineMs?: number;
  /** Events held while sends fail; later ones are dropped (and counted). Default 1,000. */
  maxEvents?: number;
}

/**
 * Sends the events one tool-call attempt emits, in order, in batches at most `batchMs` apart. A side channel: `push`
 * never waits or throws, a failed send is retried (the batch says where it starts, so a repeat is stored once),
 * and `end` waits a short deadline at most. The activity ends it before completing, so the events are stored
 * before the workflow learns the call ended and readers see them before the call's end.
 */
export class ToolEventPublisher {
  private pending: WireEvent[] = [];
  private sent = 0;
  private loop: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** Events dropped because the buffer was full. */
  dropped = 0;

  constructor(
    private readonly send: ToolEventSend,
    private readonly origin: { key: string; runId: string; attempt: number },
    private readonly options: ToolEventPublisherOptions = {},
  ) {}

  /** Queues one event. */
  push(event: WireEvent): void {
    if (this.stopped) return;
    if (this.pending.length >= (this.options.maxEvents ?? 1_000)) {
      this.dropped++;
      return;
    }
    this.pending.push(event);
    if (!this.loop) this.timer ??= setTimeout(() => this.flush(), this.options.batchMs ?? 50);
  }

  /** Sends what is queued and waits until it is stored, or the deadline; resolves true when all was stored. */
  async end(): Promise<boolean> {
    const drained = this.drain();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.endDeadlineMs ?? 3_000);
    });
    const delivered = await Promise.race([drained, deadline]);
    clearTimeout(timer);
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    return delivered && this.dropped === 0;
  }

  private async drain(): Promise<boolean> {
    while (this.pending.length > 0 && !this.stopped) {
      this.flush();
      await this.loop;
    }
    return this.pending.length === 0;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.loop || this.pending.length === 0 || this.stopped) return;
    this.loop = this.run().finally(() => (this.loop = undefined));
  }

  /** One sender at a time, so batches stay in order; a failed batch stays in front and is sent again. */
  private async run(): Promise<void> {
    let pause = this.options.retryMs ?? 100;
    while (this.pending.length > 0 && !this.stopped) {
      const events = this.pending.slice();
      const stored = await this.send({ ...this.origin, at: this.sent, events }).then(
        () => true,
        () => false,
      );
      if (stored) {
        this.pending.splice(0, events.length);
        this.sent += events.length;
        pause = this.options.retryMs ?? 100;
      } else {
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 2_000);
      }
    }
  }
}
