/** One key's lane: how many calls hold it, and who waits for it, first come first served. */
interface Lane {
  running: number;
  readonly waiting: Array<() => void>;
}

/**
 * At most `width` calls at a time per key, started in the order they were made; a key's lane is forgotten once
 * idle. Used to send one session at most one update at a time from a client (docs/decisions/0023-update-bursts.md).
 */
export class UpdateLanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly width = 1) {}

  /** Runs `call` once the key's lane has room; what it returns or throws comes out as is. */
  async run<T>(key: string, call: () => Promise<T>): Promise<T> {
    const lane = this.lanes.get(key) ?? this.open(key);
    if (lane.running < this.width) lane.running++;
    // The call that releases the lane hands its place over, so `running` stays as it is.
    else await new Promise<void>((resolve) => lane.waiting.push(resolve));
    try {
      return await call();
    } finally {
      this.release(key, lane);
    }
  }

  /** How many keys have a lane now (calls running or waiting). */
  get size(): number {
    return this.lanes.size;
  }

  private open(key: string): Lane {
    const lane: Lane = { running: 0, waiting: [] };
    this.lanes.set(key, lane);
    return lane;
  }

  private release(key: string, lane: Lane): void {
    const next = lane.waiting.shift();
    if (next) next();
    else if (--lane.running === 0) this.lanes.delete(key);
  }
}
