import { toolResultBlock } from "../vocabulary/messages.js";
import type { SessionEvent, StoredEvent } from "../vocabulary/session-events.js";
import { sessionEventOf } from "./session-event-of.js";

/** A tool call that started but never recorded a result. */
export interface RecoveredTool {
  id: string;
  name: string;
  turn: number;
}

/** What crash recovery found: the results to append, and the calls they stand for (in start order). */
export interface CrashRecovery {
  synthetic: SessionEvent[];
  recovered: RecoveredTool[];
}

/** The content of the synthetic result for a tool interrupted by a crash. */
export function interruptedToolContent(name: string): string {
  return `Error: interrupted before completion (${name})`;
}

/**
 * Builds a synthetic error result, in its turn, for every `tool_started` without a matching `tool_result` (paired in
 * order per call id, so reused ids match). The tool is never run again, since it may have had side effects before the
 * crash; the kernel appends `synthetic` to the log and yields `tool_recovered` per entry of `recovered`.
 */
export function recoverInterruptedTools(events: readonly (SessionEvent | StoredEvent)[]): CrashRecovery {
  const open: RecoveredTool[] = [];
  for (const entry of events) {
    const event = sessionEventOf(entry);
    if (event.type === "tool_started") {
      open.push({ id: event.id, name: event.name, turn: event.turn });
    } else if (event.type === "tool_result") {
      const index = open.findIndex((started) => started.id === event.result.id);
      if (index >= 0) open.splice(index, 1);
    }
  }
  const synthetic: SessionEvent[] = open.map((tool) => ({
    type: "tool_result",
    result: toolResultBlock(tool.id, interruptedToolContent(tool.name), true),
    turn: tool.turn,
  }));
  return { synthetic, recovered: open };
}
