import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import {
  assistantMessage,
  toolCallBlock,
  toolResultBlock,
  userMessage,
  type AssistantMessage,
  type Message,
} from "../../../src/kernel/vocabulary/messages.js";
import type { AgentContext } from "../../../src/kernel/middleware/middleware.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import {
  NEVER_ABORTED,
  type AbortSignalLike,
  type KernelPorts,
} from "../../../src/kernel/vocabulary/ports.js";

/** A user prompt (string content: opens a turn). */
export const prompt = (text: string): Message => userMessage(text);

/** An assistant message asking for one tool call. */
export const callOf = (id: string, input: unknown = {}): Message =>
  assistantMessage([toolCallBlock(id, "f", input)]);

/** A user message carrying one tool result. */
export const resultOf = (id: string, content: string): Message => userMessage([toolResultBlock(id, content)]);

/** One tool turn: prompt, call, result. */
export const toolTurn = (text: string, id: string, result: string): Message[] => [
  prompt(text),
  callOf(id),
  resultOf(id, result),
];

/** The body of the first tool result of a message. */
export function bodyOf(message: Message | undefined): string {
  const block = Array.isArray(message?.content) ? message.content[0] : undefined;
  if (block?.type !== "tool_result") throw new Error("not a tool-result message");
  return block.content;
}

/** Ports that never touch the clock or randomness. */
export const fakePorts: KernelPorts = {
  now: () => 0,
  random: () => 0.5,
  newId: () => "id-1",
  sleep: async () => {},
};

/** A middleware context that records emitted events. */
export function fakeContext(messages: Message[], signal: AbortSignalLike = NEVER_ABORTED) {
  const events: AgentEvent[] = [];
  const ctx: AgentContext = {
    sessionId: "s1",
    messages,
    turn: 1,
    signal,
    emit: (event) => events.push(event),
    state: new Map(),
    effect: () => Promise.reject(new Error("this test gives no effects")),
    ports: fakePorts,
  };
  return { ctx, events };
}

/** An already-aborted signal. */
export const ABORTED: AbortSignalLike = { ...NEVER_ABORTED, aborted: true };

/** One scripted reply: text for a `message_done`, an error to throw, or raw chunks. */
export type ScriptStep = { text: string } | { error: Error } | { chunks: ModelChunk[] };

/** A ModelProvider that plays `script` one step per call and records every request. */
export function scriptedProvider(script: ScriptStep[]): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: "scripted",
    requests,
    async *stream(request) {
      requests.push(request);
      const step = script[requests.length - 1];
      if (!step) throw new Error("script exhausted");
      if ("error" in step) throw step.error;
      if ("chunks" in step) return yield* step.chunks;
      const message: AssistantMessage = assistantMessage([{ type: "text", text: step.text }]);
      yield { type: "text_delta", text: step.text };
      yield { type: "message_done", message, usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}
