import type { AgentEvent } from "../vocabulary/events.js";
import type { Message } from "../vocabulary/messages.js";
import type { RunState } from "./run-state.js";

/** Adds user messages to the conversation and the log; returns what the sink queued meanwhile. */
export async function appendUserMessages(run: RunState, messages: Message[]): Promise<AgentEvent[]> {
  run.ctx.messages.push(...messages);
  await run.log.append(...messages.map((message) => ({ type: "user" as const, message })));
  return run.sink.drain();
}
