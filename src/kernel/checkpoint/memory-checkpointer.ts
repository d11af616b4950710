import { CheckpointConflictError } from "../vocabulary/errors.js";
import type { Checkpointer, SessionEvent, SessionInfo, StoredEvent } from "../vocabulary/session-events.js";
import { isoTimestamp } from "./iso-timestamp.js";
import { keyedSerialQueue } from "./keyed-serial-queue.js";
import { storeEvents } from "./store-events.js";

/** Options of {@link memoryCheckpointer}. */
export interface MemoryCheckpointerOptions {
  /**
   * The clock for `ts` and `SessionInfo.mtime`, in ms since the epoch. Defaults to `() => 0` because the kernel may
   * not read the real clock (drivers pass `Date.now` or workflow time); `list()` still orders by last modification.
   */
  now?: () => number;
}

interface SessionLog {
  events: StoredEvent[];
  mtime: number;
  /** Tie-break for `list()` when the clock did not move between modifications. */
  touched: number;
}

/**
 * An in-memory Checkpointer with all six methods, `truncate` included. Appends to one session are serialised and
 * events kept as JSON copies, so a caller's later mutation cannot rewrite history and reads match a durable backend.
 */
export function memoryCheckpointer(options: MemoryCheckpointerOptions = {}): Checkpointer {
  const now = options.now ?? (() => 0);
  const sessions = new Map<string, SessionLog>();
  const queue = keyedSerialQueue();
  let modifications = 0;
  const headOf = (log: SessionLog | undefined): number => log?.events.at(-1)?.seq ?? 0;
  const touch = (log: SessionLog, mtime: number): void => {
    log.mtime = mtime;
    log.touched = ++modifications;
  };

  const append = (sessionId: string, events: SessionEvent[], expectedHead?: number): Promise<number> =>
    queue.run(sessionId, () => {
      const existing = sessions.get(sessionId);
      const head = headOf(existing);
      if (expectedHead !== undefined && expectedHead !== head) {
        throw new CheckpointConflictError(sessionId, expectedHead, head);
      }
      if (events.length === 0) return head;
      const mtime = now();
      const log = existing ?? { events: [], mtime, touched: 0 };
      log.events.push(...storeEvents(sessionId, head, cloneJson(events), isoTimestamp(mtime)));
      touch(log, mtime);
      sessions.set(sessionId, log);
      return headOf(log);
    });

  return {
    append,
    async *read(sessionId, readOptions) {
      const since = readOptions?.sinceSeq ?? 0;
      const snapshot = (sessions.get(sessionId)?.events ?? []).filter((stored) => stored.seq > since);
      for (const stored of snapshot) yield cloneJson(stored);
    },
    head: (sessionId) => queue.run(sessionId, () => headOf(sessions.get(sessionId))),
    async list(): Promise<SessionInfo[]> {
      return [...sessions.entries()]
        .sort(([, a], [, b]) => b.mtime - a.mtime || b.touched - a.touched)
        .map(([id, log]) => ({ id, mtime: log.mtime }));
    },
    delete: (sessionId) =>
      queue.run(sessionId, () => {
        sessions.delete(sessionId);
      }),
    truncate: (sessionId, toSeq) =>
      queue.run(sessionId, () => {
        const log = sessions.get(sessionId);
        if (!log) return; // an unknown session stays unknown rather than appearing empty in list()
        log.events = log.events.filter((stored) => stored.seq <= toSeq);
        touch(log, now());
      }),
  };
}

/** A deep copy through JSON: the same transformation every durable backend applies. */
function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
