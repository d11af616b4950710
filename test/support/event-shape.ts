import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";

/**
 * A run's events in a form two drivers can be compared by: deltas merged, offsets, run ids and durations dropped,
 * `done` reduced to its reason, text and usage, and each tool phase grouped by call (parallel calls end in any order).
 */
export function eventShape(events: AgentEvent[]): unknown[] {
  const merged: AgentEvent[] = [];
  for (const event of events) {
    const last = merged.at(-1);
    if (event.type === "text_delta" && last?.type === "text_delta")
      merged[merged.length - 1] = { ...last, text: last.text + event.text };
    else merged.push(event);
  }
  const shaped = merged.map((event) => {
    const {
      offset: _o,
      runId: _r,
      deltaId: _d,
      ...rest
    } = event as AgentEvent & {
      offset?: number;
      runId?: string;
      deltaId?: string;
    };
    if ("durationMs" in rest) return { ...rest, durationMs: 0 };
    if (rest.type === "done")
      return { type: "done", reason: rest.reason, text: rest.result.text, usage: rest.result.usage };
    return rest;
  });
  return inCallOrder(shaped);
}

const TOOL_EVENTS = ["tool_call_start", "tool_call_end", "tool_result"];
const callIdOf = (event: { type: string }): string =>
  "call" in event
    ? (event.call as { id: string }).id
    : "result" in event
      ? (event.result as { id: string }).id
      : (event as unknown as { id: string }).id;

/**
 * Parallel tool calls complete in any order (live events follow completion), so within each tool phase the events
 * are compared grouped by call, in call order; everything else must match exactly.
 */
function inCallOrder(events: { type: string }[]): unknown[] {
  const result: unknown[] = [];
  for (let index = 0; index < events.length;) {
    if (!TOOL_EVENTS.includes(events[index]!.type)) {
      result.push(events[index++]);
      continue;
    }
    const phase: { type: string }[] = [];
    while (index < events.length && TOOL_EVENTS.includes(events[index]!.type)) phase.push(events[index++]!);
    const ids = [...new Set(phase.map(callIdOf))].sort();
    for (const id of ids) result.push(...phase.filter((event) => callIdOf(event) === id));
  }
  return result;
}
