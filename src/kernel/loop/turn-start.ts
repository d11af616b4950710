import { backgroundCompletionMessage } from "../background/completion-message.js";
import type { ContextEngine } from "../context/types.js";
import type { AgentEvent } from "../vocabulary/events.js";
import type { MaybeAsync } from "../coroutine/maybe-async.js";
import type { Message } from "../vocabulary/messages.js";
import type { PreparedView } from "../phases/model-request.js";
import type { RunState } from "./run-state.js";
import { appendUserMessages } from "./user-messages.js";

/**
 * Step 5: queued steers, then background completions, become user messages before the model call. Synchronous
 * (no promise) when there are none.
 */
export function injectAtTurnStart(run: RunState): MaybeAsync<AgentEvent[]> {
  const steers = run.steer?.takeSteers() ?? [];
  if (steers.length > 0 || (run.background?.owned && run.background.tasks.hasCompleted()))
    return injectMessages(run, steers);
  return [];
}

async function injectMessages(run: RunState, steers: Message[]): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  if (steers.length > 0) {
    events.push(...(await appendUserMessages(run, steers)), { type: "steer", messages: steers });
  }
  if (!run.background?.owned) return events;
  for (const completion of run.background.tasks.takeCompleted()) {
    events.push(...(await appendUserMessages(run, [backgroundCompletionMessage(completion)])));
    events.push({ type: "background_completed", completion });
  }
  return events;
}

/** What the model sees this turn, and the events reporting it. */
export interface PreparedContext {
  view: PreparedView | undefined;
  events: AgentEvent[];
}

/** No ContextEngine: the model sees the conversation as it is. */
const NO_CONTEXT: PreparedContext = { view: undefined, events: [] };

/** The ContextEngine's view for this turn, reported when it acted; without an engine, the conversation as it is. */
export function prepareContext(run: RunState): MaybeAsync<PreparedContext> {
  return run.engine ? prepareWith(run, run.engine) : NO_CONTEXT;
}

async function prepareWith(run: RunState, engine: ContextEngine): Promise<PreparedContext> {
  const from = run.ctx.messages;
  const prepared = await engine.prepare(from, { system: run.config.system, tools: run.specs });
  const events: AgentEvent[] =
    prepared.status.level > 0 ? [{ type: "context_status", ...prepared.status }] : [];
  return { view: { from, messages: prepared.messages, edits: prepared.edits }, events };
}
