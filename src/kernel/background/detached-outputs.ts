import { RingBuffer } from "./ring-buffer.js";

/** Characters of detached output kept per task when `limits.bufferBytes` is not set. */
export const DEFAULT_BACKGROUND_BUFFER_CHARS = 1_000_000;

/** The prefix of a `read()` whose unread output partly fell out of the ring buffer. */
export const TRUNCATED_MARKER = "[…truncated]\n";

interface DetachedOutput {
  label: string;
  ring: RingBuffer;
  /** Absolute position up to which `read()` has returned output. */
  cursor: number;
  done: boolean;
}

/**
 * What detached tasks wrote, each in a ring buffer of `capacity` characters: `read` returns what is new since the
 * last read (marked when part of it fell out); writes after a task is done are dropped.
 */
export class DetachedOutputs {
  private readonly outputs = new Map<string, DetachedOutput>();

  constructor(private readonly capacity: number) {}

  add(id: string, label: string): void {
    this.outputs.set(id, { label, ring: new RingBuffer(this.capacity), cursor: 0, done: false });
  }

  write(id: string, chunk: string): void {
    const output = this.outputs.get(id);
    if (output && !output.done) output.ring.write(chunk);
  }

  markDone(id: string): void {
    const output = this.outputs.get(id);
    if (output) output.done = true;
  }

  read(id: string, options?: { filter?: RegExp }): { output: string; done: boolean } | null {
    const output = this.outputs.get(id);
    if (!output) return null;
    const slice = output.ring.readFrom(output.cursor);
    output.cursor = output.ring.written;
    const text = options?.filter ? filterLines(slice.text, options.filter) : slice.text;
    return { output: (slice.dropped ? TRUNCATED_MARKER : "") + text, done: output.done };
  }

  list(): { id: string; label: string; done: boolean }[] {
    return [...this.outputs].map(([id, output]) => ({ id, label: output.label, done: output.done }));
  }
}

/** Keeps the lines of `text` that match `filter`. */
function filterLines(text: string, filter: RegExp): string {
  return text
    .split("\n")
    .filter((line) => {
      // A global or sticky RegExp remembers lastIndex between tests; reset it so every line is tested whole.
      filter.lastIndex = 0;
      return filter.test(line);
    })
    .join("\n");
}
