import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { History } from "@temporalio/common/lib/proto-utils.js";
import { historyFromJson } from "./history-json.js";

export type { History };

/** The folder of committed histories (canonical JSON, as `temporal workflow show --output json` writes). */
export const HISTORIES_DIR = join(dirname(fileURLToPath(import.meta.url)), "histories");

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
