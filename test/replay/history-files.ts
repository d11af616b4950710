import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { History } from "@temporalio/common/lib/proto-utils.js";
import type { ExternalStorage } from "@temporalio/common";
import { createExternalStorage } from "../../src/storage/payload-storage.js";
import { DEFAULT_PAYLOAD_THRESHOLD } from "../../src/storage/storage-config.js";
import { historyFromJson } from "./history-json.js";

export type { History };

/** The folder of committed histories (canonical JSON, as `temporal workflow show --output json` writes). */
export const HISTORIES_DIR = join(dirname(fileURLToPath(import.meta.url)), "histories");

/**
 * The committed blobs of the histories' externally stored payloads, under their keys
 * (`<namespace>/sessions/<session id>/<sha256>`), as the filesystem driver lays them out.
 */
export const PAYLOADS_DIR = join(dirname(fileURLToPath(import.meta.url)), "payloads");

/** The storage the histories were recorded with: the filesystem driver on PAYLOADS_DIR, the default threshold. */
export function replayPayloadStorage(dir: string = PAYLOADS_DIR): ExternalStorage {
  const storage = createExternalStorage({ kind: "fs", dir, threshold: DEFAULT_PAYLOAD_THRESHOLD });
  if (!storage) throw new Error("no external storage for the filesystem driver");
  return storage;
}

/**
 * The keys of every blob in the payloads folder, sorted (`/`-separated, as in the histories' references). Dot
 * files (the folder's `.gitattributes`) are not blobs.
 */
export function listPayloadKeys(dir: string = PAYLOADS_DIR): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

/** Every file in the histories folder, sorted (not only `.json`, so a stray file is noticed). */
export function listHistoryFolder(): string[] {
  return readdirSync(HISTORIES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** A history file, parsed, with the workflow id it was recorded under. */
export interface HistoryFile {
  file: string;
  history: History;
  workflowId: string;
}

/** Reads a history file. A fresh object on each call, so a test may alter it freely. */
export function loadHistoryFile(file: string): HistoryFile {
  const history = historyFromJson(JSON.parse(readFileSync(join(HISTORIES_DIR, file), "utf8")));
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!started?.workflowId)
    throw new Error(`${file}: the first event is not a WorkflowExecutionStarted with a workflow id`);
  return { file, history, workflowId: started.workflowId };
}

/** The file name of execution `index` (0-based) of a scenario that recorded `count` executions. */
export function historyFileName(scenario: string, index: number, count: number): string {
  return count === 1 ? `${scenario}.json` : `${scenario}.${index + 1}.json`;
}
