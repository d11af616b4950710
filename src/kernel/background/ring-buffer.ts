/** What a ring-buffer read returns: the text still held from a position on, and whether some was lost. */
export interface RingBufferSlice {
  text: string;
  /** True when characters after the requested position had already been dropped. */
  dropped: boolean;
}

/**
 * Keeps the last `capacity` characters written. Positions are absolute (characters ever written), so a reader keeps a
 * cursor and learns on its next read whether the buffer overtook it: after `write("abcdef")` into capacity 4,
 * `readFrom(0)` is `{ text: "cdef", dropped: true }`.
 */
export class RingBuffer {
  /** Chunks as written; kept whole so a write costs no copy of what is already held. */
  private chunks: string[] = [];
  private held = 0;
  private total = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`ring buffer capacity must be a non-negative integer, got ${capacity}`);
    }
  }

  /** How many characters were ever written. */
  get written(): number {
    return this.total;
  }

  /** The absolute position of the oldest character still held. */
  get start(): number {
    return this.total - this.held;
  }

  /** True once any character has been dropped. */
  get hasDropped(): boolean {
    return this.start > 0;
  }

  /** Appends `chunk`, dropping the oldest characters beyond the capacity. */
  write(chunk: string): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.held += chunk.length;
    this.trim();
  }

  /** The characters held from absolute position `position` on (clamped to what is still held). */
  readFrom(position: number): RingBufferSlice {
    const dropped = position < this.start;
    const skip = Math.max(0, position - this.start);
    if (skip >= this.held) return { text: "", dropped };
    return { text: this.chunks.join("").slice(skip), dropped };
  }

  /** Everything still held. */
  toString(): string {
    return this.chunks.join("");
  }

  private trim(): void {
    let excess = this.held - this.capacity;
    while (excess > 0) {
      const first = this.chunks[0] ?? "";
      if (first.length <= excess) {
        this.chunks.shift();
        excess -= first.length;
        this.held -= first.length;
      } else {
        this.chunks[0] = first.slice(excess);
        this.held -= excess;
        excess = 0;
      }
    }
  }
}
