import type { EventLogState, LoggedEntry, StreamEntry } from "../../contract/stream/stream-entry.js";

/** One read of the log: the entries from an offset, as many as fit in the byte budget. */
export interface EventLogPage {
  /** The oldest offset still kept; a reader behind it has missed entries. */
  base: number;
  /** The next offset to be written. */
  end: number;
  items: LoggedEntry[];
}

/**
 * The session's offset-addressed event log. It lives in workflow memory and is read by query, so a reader costs
 * no history at all (docs/decisions/0005); offsets go on across continue-as-new, and the oldest entries are
 * dropped to keep memory and the carried state bounded. Entries are whole events, however large.
 */
export class EventLog {
  private base: number;
  private readonly entries: StreamEntry[];
  /** Each entry's JSON size. */
  private readonly sizes: number[];
  /** What the entries count toward {@link trimTo}: their sizes, each at most `countedAtMost`. */
  private counted: number;

  /** `countedAtMost`: the most one entry counts toward {@link trimTo}, however large it is. */
  constructor(
    state?: EventLogState,
    private readonly countedAtMost = Infinity,
  ) {
    this.base = state?.base ?? 0;
    this.entries = [...(state?.entries ?? [])];
    this.sizes = this.entries.map(entrySize);
    this.counted = this.sizes.reduce((sum, size) => sum + this.count(size), 0);
  }

  /** The next offset to be written. */
  get end(): number {
    return this.base + this.entries.length;
  }

  /** Appends an entry; returns its offset. */
  append(entry: StreamEntry): number {
    const size = entrySize(entry);
    this.entries.push(entry);
    this.sizes.push(size);
    this.counted += this.count(size);
    return this.end - 1;
  }

  /** The entries from `from`, at least one when there is one, then as many as fit in `maxBytes`. */
  read(from: number, maxBytes: number): EventLogPage {
    const items: LoggedEntry[] = [];
    let bytes = 0;
    for (let index = Math.max(0, from - this.base); index < this.entries.length; index++) {
      bytes += this.sizes[index]!;
      if (items.length > 0 && bytes > maxBytes) break;
      items.push({ offset: this.base + index, entry: this.entries[index]! });
    }
    return { base: this.base, end: this.end, items };
  }

  /** Drops the entries before `upTo`. */
  truncate(upTo: number): void {
    const count = Math.min(upTo, this.end) - this.base;
    if (count <= 0) return;
    this.entries.splice(0, count);
    for (const size of this.sizes.splice(0, count)) this.counted -= this.count(size);
    this.base += count;
  }

  /** Drops the oldest entries until the rest count (each at most `countedAtMost`) no more than `maxBytes`. */
  trimTo(maxBytes: number): void {
    let total = this.counted;
    let drop = 0;
    while (drop < this.entries.length && total > maxBytes) total -= this.count(this.sizes[drop++]!);
    this.truncate(this.base + drop);
  }

  /** The newest entries whose JSON fits in `maxBytes` (their whole size), for the next execution. */
  state(maxBytes = Infinity): EventLogState {
    let first = this.entries.length;
    for (let total = 0; first > 0 && total + this.sizes[first - 1]! <= maxBytes; first--)
      total += this.sizes[first - 1]!;
    return { base: this.base + first, entries: this.entries.slice(first) };
  }

  private count(size: number): number {
    return Math.min(size, this.countedAtMost);
  }
}

function entrySize(entry: StreamEntry): number {
  return JSON.stringify(entry).length;
}
