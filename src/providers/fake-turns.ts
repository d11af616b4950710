import type { FakeTurn } from "./fake-provider.js";
import {
  assistantMessage,
  textBlock,
  toolCallBlock,
  type ContentBlock,
} from "../kernel/vocabulary/messages.js";
import type { Usage } from "../kernel/vocabulary/model.js";

/** A tool call to script: `id` defaults to `call_<i>` (0-based position in the turn). */
export interface ScriptedToolCall {
  name: string;
  input: unknown;
  id?: string;
}

/** A turn where the model answers with text only; the text is also streamed. */
export function textTurn(text: string, usage?: Usage): FakeTurn {
  const turn: FakeTurn = { text, message: assistantMessage([textBlock(text)]) };
  return usage ? { ...turn, usage } : turn;
}

/**
 * A turn where the model calls tools, optionally after some text (streamed, and placed before the calls in
 * the message, as providers order them).
 */
export function toolCallTurn(calls: readonly ScriptedToolCall[], text?: string, usage?: Usage): FakeTurn {
  const blocks: ContentBlock[] = text ? [textBlock(text)] : [];
  calls.forEach((call, i) => blocks.push(toolCallBlock(call.id ?? `call_${i}`, call.name, call.input)));
  const turn: FakeTurn = { message: assistantMessage(blocks) };
  if (text) turn.text = text;
  if (usage) turn.usage = usage;
  return turn;
}
