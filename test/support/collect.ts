import type { DurableEvent } from "../../src/client.js";
import type { AgentEvent, RunResult } from "../../src/kernel/vocabulary/events.js";
import type { Agent } from "../../src/agent.js";
import { runKernel } from "../../src/kernel/loop/run-kernel.js";

/** Drains a run, returning every event and the result. */
export function collect(
  run: AsyncGenerator<AgentEvent, RunResult>,
): Promise<{ events: AgentEvent[]; result: RunResult }> {
  return drain(run);
}

/** Follows a durable run to its end (`SessionHandle.events`), returning every event, offsets and all, and the result. */
export function collectDurable(
  run: AsyncGenerator<DurableEvent, RunResult>,
): Promise<{ events: DurableEvent[]; result: RunResult }> {
  return drain(run);
}

/** Every value a generator yields, and what it returns. Typed entry points above keep callers' event types exact. */
async function drain<E>(run: AsyncGenerator<E, RunResult>): Promise<{ events: E[]; result: RunResult }> {
  const events: E[] = [];
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}

/** The event types, with consecutive text/reasoning deltas collapsed into one entry each. */
export function eventTypes(events: AgentEvent[], { collapseDeltas = false } = {}): string[] {
  const types = events.map((event) => event.type);
  if (!collapseDeltas) return types;
  return types.filter((type, index) => !(type.endsWith("_delta") && types[index - 1] === type));
}

/** The agent's kernel run itself: its events end with `done` even after a fatal error (`agent.run` throws it). */
export function kernelOf(agent: Agent): Pick<Agent, "run"> {
  return {
    run: (input, options = {}) =>
      runKernel(agent.config, input, { ...options, sessionId: options.sessionId ?? "test-session" }),
  };
}
