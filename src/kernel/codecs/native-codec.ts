import type { AssistantMessage, ContentBlock, Message } from "../vocabulary/messages.js";
import type { ModelRequest } from "../vocabulary/model.js";
import type { ToolCall, ToolSpec } from "../vocabulary/tools.js";
import { deterministicCallId } from "./call-id.js";
import { repairPrompt } from "./repair-prompt.js";
import { stableStringify } from "../hash/stable-stringify.js";
import type { DecodedResponse, ToolCallCodec } from "./types.js";

/**
 * The codec for providers with function calling: tools go out as native `tools`, calls come back as `tool_call`
 * blocks, text streams through. Encode drops `reasoning` blocks (providers reject or mis-bill them when sent back);
 * decode gives id-less calls a {@link deterministicCallId}, so retries and replays see the same id.
 */
export function nativeCodec(): ToolCallCodec {
  return {
    name: "native",
    streaming: "passthrough",
    encode(request: ModelRequest, tools: ToolSpec[]): ModelRequest {
      const messages = request.messages.map(withoutReasoning);
      return tools.length ? { ...request, messages, tools } : { ...request, messages };
    },
    decode: decodeNative,
    repairPrompt: (error, attempt, tools) => repairPrompt(error, attempt, tools),
  };
}

/** Stripped copies, one per message: a message stays the same object from turn to turn (requests share them). */
// eslint-disable-next-line no-restricted-syntax -- a pure cache keyed by the message object itself.
const stripped = new WeakMap<Message, Message>();

function withoutReasoning(message: Message): Message {
  if (message.role !== "assistant" || typeof message.content === "string") return message;
  if (!message.content.some((block) => block.type === "reasoning")) return message;
  let copy = stripped.get(message);
  if (!copy) {
    copy = { ...message, content: message.content.filter((block) => block.type !== "reasoning") };
    stripped.set(message, copy);
  }
  return copy;
}

function decodeNative(message: AssistantMessage): DecodedResponse {
  const blocks: ContentBlock[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  let text = "";
  const calls: ToolCall[] = [];
  let raw: string | undefined;
  for (const block of blocks) {
    if (block.type === "text") text += block.text;
    if (block.type !== "tool_call") continue;
    let id = block.id;
    if (!id) {
      // What the model said, without ids, so the hash does not depend on which other calls had one.
      raw ??= stableStringify(blocks.map(idlessBlock).filter((b) => b !== undefined));
      id = deterministicCallId(raw, calls.length, block.name, block.input);
    }
    calls.push({ id, name: block.name, input: block.input });
  }
  return { text, calls };
}

function idlessBlock(block: ContentBlock): unknown {
  if (block.type === "text") return { text: block.text };
  if (block.type === "tool_call") return { name: block.name, input: block.input ?? {} };
  return undefined;
}
