import { isToolEventBatch } from "../wire/tool-events.js";
import type { ToolEventBatch } from "../contract/stream/tool-event-batch.js";
import type { WireEvent } from "../contract/stream/wire-event.js";

/**
 * What a tool activity's heartbeat carries once its tool emitted events: as much of the call's event tail as fits
 * {@link TOOL_EVENT_WINDOW_BYTES}, plus the tool's own heartbeat details if any. Each replaces the previous on the
 * pending activity, where clients read it; the result carries the last window (docs/decisions/0021).
 */
export interface ToolEventSnapshot {
  toolEvents: ToolEventBatch;
  details?: unknown;
}

/**
 * The most UTF-8 bytes of events (as JSON) one window holds. The activity's result carries the last window into
 * history, so it is kept small; it is well below the payload storage threshold (128 KiB by default, ADR 0004), so
 * a heartbeat never goes by reference unless one event alone passes it.
 */
export const TOOL_EVENT_WINDOW_BYTES = 32 * 1024;

/**
 * The events of one tool-call attempt, bounded to the tail that fits `maxBytes`: when they grow past it, the oldest
 * are dropped and `at` (the index of the first one kept in the attempt's sequence) moves forward. The newest event
 * is always kept, whatever its size.
 */
export class ToolEventWindow {
  private at = 0;
  private readonly events: WireEvent[] = [];
  private readonly sizes: number[] = [];
  private bytes = 0;

  constructor(
    private readonly origin: { key: string; runId: string; attempt: number },
    private readonly maxBytes = TOOL_EVENT_WINDOW_BYTES,
  ) {}

  /** True until the first event is added. */
  get empty(): boolean {
    return this.at === 0 && this.events.length === 0;
  }

  /** Adds the attempt's next event, dropping the oldest ones beyond the window. */
  add(event: WireEvent): void {
    const size = byteLength(JSON.stringify(event));
    this.events.push(event);
    this.sizes.push(size);
    this.bytes += size;
    while (this.bytes > this.maxBytes && this.events.length > 1) {
      this.events.shift();
      this.bytes -= this.sizes.shift()!;
      this.at++;
    }
  }

  /** A copy of what the window holds now. */
  batch(): ToolEventBatch {
    return { ...this.origin, at: this.at, events: this.events.slice() };
  }
}

/** True for heartbeat details that are a {@link ToolEventSnapshot} (a worker of another build may send others). */
export function isToolEventSnapshot(value: unknown): value is ToolEventSnapshot {
  return (
    typeof value === "object" && value !== null && isToolEventBatch((value as ToolEventSnapshot).toolEvents)
  );
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).length;
}
