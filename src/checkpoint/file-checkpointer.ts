import { appendFile, mkdir, open, readFile, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { keyedSerialQueue } from "../kernel/checkpoint/keyed-serial-queue.js";
import { storeEvents } from "../kernel/checkpoint/store-events.js";
import { CheckpointConflictError } from "../kernel/vocabulary/errors.js";
import type {
  Checkpointer,
  SessionEvent,
  SessionInfo,
  StoredEvent,
} from "../kernel/vocabulary/session-events.js";
import { parseSessionLog } from "./parse-session-log.js";
import { SESSION_LOG_SUFFIX, sessionFileName } from "./session-file-name.js";
import { syncDirectory, writeFileAtomic } from "./write-file-atomic.js";

/** Options of {@link fileCheckpointer}. */
export interface FileCheckpointerOptions {
  /** The directory holding one `<sessionId>.jsonl` log per session. Created on the first append. */
  dir: string;
  /**
   * Drop a corrupt final record (what a crash mid-append leaves) and rewrite the file, keeping every complete event
   * before it. Default true. When false, a corrupt record fails the read with an error naming the file and line.
   */
  repairTail?: boolean;
  /** fsync every append before it resolves. Default false. */
  durable?: boolean;
}

/**
 * A Checkpointer keeping each session as an append-only JSON-lines file, one StoredEvent per line. The head is cached
 * after the first read and appends to one session are serialised, so it serves a single process; several processes
 * writing one directory need a backend with real locking.
 */
export function fileCheckpointer(options: FileCheckpointerOptions): Checkpointer {
  const log = sessionLogFiles({
    dir: options.dir,
    repairTail: options.repairTail ?? true,
    durable: options.durable ?? false,
  });
  const queue = keyedSerialQueue();
  return {
    append: (sessionId, events, expectedHead) =>
      queue.run(sessionId, () => log.append(sessionId, events, expectedHead)),
    async *read(sessionId, readOptions) {
      const events = await queue.run(sessionId, () => log.load(sessionId));
      const since = readOptions?.sinceSeq ?? 0;
      for (const stored of events) if (stored.seq > since) yield stored;
    },
    head: (sessionId) => queue.run(sessionId, () => log.head(sessionId)),
    list: () => listSessions(options.dir),
    delete: (sessionId) => queue.run(sessionId, () => log.remove(sessionId)),
    truncate: (sessionId, toSeq) => queue.run(sessionId, () => log.truncate(sessionId, toSeq)),
  };
}

interface SessionLogSettings {
  dir: string;
  repairTail: boolean;
  durable: boolean;
}

/** The file operations of one checkpointer. Callers serialise them per session. */
function sessionLogFiles(settings: SessionLogSettings) {
  const heads = new Map<string, number>();
  const fileOf = (sessionId: string): string => join(settings.dir, sessionFileName(sessionId));

  const load = async (sessionId: string): Promise<StoredEvent[]> => {
    const file = fileOf(sessionId);
    const text = await readTextIfExists(file);
    const parsed = parseSessionLog(text ?? "", { file, repairTail: settings.repairTail });
    if (parsed.repaired) await writeFileAtomic(file, serialise(parsed.events), settings.durable);
    // A complete last record without its newline would fuse with the next append.
    else if (text && !text.endsWith("\n")) await appendFile(file, "\n", "utf8");
    heads.set(sessionId, parsed.events.at(-1)?.seq ?? 0);
    return parsed.events;
  };

  const head = async (sessionId: string): Promise<number> => {
    const cached = heads.get(sessionId);
    if (cached !== undefined) return cached;
    return (await load(sessionId)).at(-1)?.seq ?? 0;
  };

  const append = async (
    sessionId: string,
    events: SessionEvent[],
    expectedHead?: number,
  ): Promise<number> => {
    const current = await head(sessionId);
    if (expectedHead !== undefined && expectedHead !== current) {
      throw new CheckpointConflictError(sessionId, expectedHead, current);
    }
    if (events.length === 0) return current;
    const stored = storeEvents(sessionId, current, events, new Date().toISOString());
    try {
      await appendRecords(fileOf(sessionId), serialise(stored), settings.durable && current === 0, settings);
    } catch (error) {
      heads.delete(sessionId); // the file may hold part of the write: re-read (and repair) it next time
      throw error;
    }
    const newHead = current + stored.length;
    heads.set(sessionId, newHead);
    return newHead;
  };

  const truncate = async (sessionId: string, toSeq: number): Promise<void> => {
    const file = fileOf(sessionId);
    if ((await readTextIfExists(file)) === null) return; // no phantom file for an unknown session
    const kept = (await load(sessionId)).filter((stored) => stored.seq <= toSeq);
    await writeFileAtomic(file, serialise(kept), settings.durable);
    heads.set(sessionId, kept.at(-1)?.seq ?? 0);
  };

  const remove = async (sessionId: string): Promise<void> => {
    await rm(fileOf(sessionId), { force: true });
    heads.delete(sessionId);
  };

  return { load, head, append, truncate, remove };
}

/** Appends `body`; with `durable`, fsyncs it, and also the directory when the file may be new. */
async function appendRecords(
  file: string,
  body: string,
  mayCreate: boolean,
  settings: SessionLogSettings,
): Promise<void> {
  await mkdir(settings.dir, { recursive: true });
  if (!settings.durable) {
    await appendFile(file, body, "utf8");
    return;
  }
  const handle = await open(file, "a");
  try {
    await handle.writeFile(body, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (mayCreate) await syncDirectory(settings.dir);
}

/** Every session log in `dir`, most recently modified first (ties by id, so the order is stable). */
async function listSessions(dir: string): Promise<SessionInfo[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissingFile(error)) return [];
    throw error;
  }
  const logs = entries.filter((entry) => entry.isFile() && entry.name.endsWith(SESSION_LOG_SUFFIX));
  const found = await Promise.all(
    logs.map(async (entry): Promise<SessionInfo | null> => {
      const id = entry.name.slice(0, -SESSION_LOG_SUFFIX.length);
      try {
        return { id, mtime: (await stat(join(dir, entry.name))).mtimeMs };
      } catch (error) {
        if (isMissingFile(error)) return null; // deleted since readdir
        throw error;
      }
    }),
  );
  const sessions = found.filter((session): session is SessionInfo => session !== null);
  return sessions.sort((a, b) => b.mtime - a.mtime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function serialise(events: readonly StoredEvent[]): string {
  return events.map((stored) => JSON.stringify(stored) + "\n").join("");
}

async function readTextIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if (isMissingFile(error)) return null;
    throw error;
  }
}

function isMissingFile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}
