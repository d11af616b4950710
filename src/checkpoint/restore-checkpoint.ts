import { rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { AgentError } from "../kernel/vocabulary/errors.js";
import type { Checkpointer, SessionEvent } from "../kernel/vocabulary/session-events.js";

/** Options of {@link restoreCheckpoint}. */
export interface RestoreOptions {
  /** Drop the log after `toSeq`, so the next run continues from there. Default true. */
  conversation?: boolean;
  /** Put back the files the session's tools changed after `toSeq`, from their snapshots. Default true. */
  files?: boolean;
  /** What relative snapshot paths are relative to. Default the process's working directory. */
  workdir?: string;
}

/** What a restore did to files. */
export interface RestoreResult {
  /** Files put back as they were (or removed, when they did not exist then). */
  reverted: string[];
  /** Files whose snapshot was cut short (too large to keep whole), so they were left as they are. */
  skipped: string[];
}

type FileSnapshot = Extract<SessionEvent, { type: "file_snapshot" }>;

/**
 * Restores a session to the point after event `toSeq` (the seed's `restore`): with `files`, every file a tool changed
 * later is put back from its earliest snapshot after `toSeq` (a file that did not exist is removed); with
 * `conversation`, the log is then truncated to `toSeq`. Bad input fails before anything changes.
 */
export async function restoreCheckpoint(
  checkpointer: Checkpointer,
  sessionId: string,
  toSeq: number,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const { conversation = true, files = true } = options;
  const head = await checkpointer.head(sessionId);
  if (!Number.isInteger(toSeq) || toSeq < 0 || toSeq > head)
    throw new AgentError(`restore: 'toSeq' must be a whole number from 0 to ${head} (got ${String(toSeq)})`);
  if (conversation && !checkpointer.truncate)
    throw new AgentError("restore: this checkpointer cannot truncate a session (it has no `truncate`)");
  const result: RestoreResult = { reverted: [], skipped: [] };
  if (files) {
    for (const snapshot of await earliestSnapshotsAfter(checkpointer, sessionId, toSeq)) {
      if (snapshot.truncated) {
        result.skipped.push(snapshot.path);
        continue;
      }
      await revertFile(resolve(options.workdir ?? process.cwd(), snapshot.path), snapshot);
      result.reverted.push(snapshot.path);
    }
  }
  if (conversation) await checkpointer.truncate!(sessionId, toSeq);
  return result;
}

/** For each path changed after `toSeq`, its first snapshot there: the file as it was at `toSeq`. */
async function earliestSnapshotsAfter(
  checkpointer: Checkpointer,
  sessionId: string,
  toSeq: number,
): Promise<FileSnapshot[]> {
  const earliest = new Map<string, FileSnapshot>();
  for await (const stored of checkpointer.read(sessionId, { sinceSeq: toSeq })) {
    const event = stored.event;
    if (event.type === "file_snapshot" && !earliest.has(event.path)) earliest.set(event.path, event);
  }
  return [...earliest.values()];
}

async function revertFile(file: string, snapshot: FileSnapshot): Promise<void> {
  if (snapshot.before === null) {
    await rm(file, { force: true });
    return;
  }
  const bytes =
    snapshot.encoding === "base64"
      ? Buffer.from(snapshot.before, "base64")
      : Buffer.from(snapshot.before, "utf8");
  await writeFile(file, bytes);
}
