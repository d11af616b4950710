import { AgentError, errorMessage } from "../kernel/vocabulary/errors.js";
import type { StoredEvent } from "../kernel/vocabulary/session-events.js";

/** What was read from a session log file. */
export interface ParsedSessionLog {
  events: StoredEvent[];
  /** True when a corrupt final record was dropped, so the file must be rewritten. */
  repaired: boolean;
}

/**
 * Parses the JSON lines of a session log. A record that is not valid JSON, is not a StoredEvent, or breaks the
 * seq chain is corrupt. A corrupt final record is what a crash mid-append leaves behind, so with `repairTail` it is
 * dropped; any other corrupt record throws an error naming the file and line, since dropping it would lose history.
 */
export function parseSessionLog(
  text: string,
  options: { file: string; repairTail: boolean },
): ParsedSessionLog {
  const lines = text.split("\n");
  const lastRecord = lastNonEmptyIndex(lines);
  const events: StoredEvent[] = [];
  for (let index = 0; index <= lastRecord; index++) {
    const line = lines[index] ?? "";
    if (line.trim() === "") continue;
    try {
      events.push(parseRecord(line, events.at(-1)?.seq ?? 0));
    } catch (error) {
      if (options.repairTail && index === lastRecord) return { events, repaired: true };
      throw new AgentError(
        `Corrupt checkpoint record at ${options.file}:${index + 1}: ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    }
  }
  return { events, repaired: false };
}

function lastNonEmptyIndex(lines: string[]): number {
  for (let index = lines.length - 1; index >= 0; index--) {
    if ((lines[index] ?? "").trim() !== "") return index;
  }
  return -1;
}

function parseRecord(line: string, previousSeq: number): StoredEvent {
  const record = JSON.parse(line) as Partial<StoredEvent> | null;
  if (typeof record !== "object" || record === null) throw new Error("not a JSON object");
  if (typeof record.event?.type !== "string") throw new Error("missing event.type");
  if (record.seq !== previousSeq + 1)
    throw new Error(`seq ${String(record.seq)} does not follow ${previousSeq}`);
  return record as StoredEvent;
}
