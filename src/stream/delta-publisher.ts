import { DEFAULT_BATCH_MS, type DeltaSink, type StreamDelta } from "./stream-delta.js";

/**
 * Gathers the deltas of one model-call attempt and sends them in batches at most `batchMs` apart, merging
 * consecutive pieces of the same kind so a batch carries a few entries, not one per token.
 */
export class DeltaPublisher {
  private pending: StreamDelta[] = [];
  private offsets = { text: 0, reasoning: 0 };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly sink: DeltaSink,
    private readonly origin: { key: string; attempt: number },
    private readonly batchMs = DEFAULT_BATCH_MS,
    private readonly endMarker = true,
  ) {}

  /** Queues a piece of output. */
  push(kind: StreamDelta["kind"], text: string): void {
    if (text === "") return;
    const last = this.pending.at(-1);
    if (last && last.kind === kind) last.text += text;
    else this.pending.push({ ...this.origin, kind, at: this.offsets[kind], text });
    this.offsets[kind] += text.length;
    this.timer ??= setTimeout(() => this.flush(), this.batchMs);
  }

  /** Sends everything queued (and the end marker, when the transport wants one); resolves when stored. */
  async end(): Promise<void> {
    if (this.endMarker)
      this.pending.push({ ...this.origin, kind: "text", at: this.offsets.text, text: "", end: true });
    this.flush();
    await this.sending;
    if (this.failure) throw this.failure;
  }

  /** Stops the timer and releases the sink (after `end`, or when the attempt failed). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.sending;
    await this.sink.close().catch(() => undefined);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    // Batches go out one after another so the stream keeps their order.
    this.sending = this.sending
      .then(() => this.sink.send(batch))
      .catch((error: unknown) => void (this.failure ??= error));
  }
}
