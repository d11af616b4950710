import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { ContentBlock, AssistantMessage } from "../kernel/vocabulary/messages.js";
import type { ModelChunk, ModelStopReason, Usage } from "../kernel/vocabulary/model.js";
import { toStopReason } from "./openai-stop-reason.js";

/** A streamed delta as OpenAI-compatible servers send it, with the reasoning fields the SDK types omit. */
type WireDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown };

/** A usage object, with DeepSeek's cache field beside OpenAI's. */
type WireUsage = CompletionUsage & { prompt_cache_hit_tokens?: unknown };

/** A tool call being assembled from its deltas. */
interface PendingCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

/** A tool call whose arguments were not a JSON object: it runs with `{}`, and the raw text is kept. */
export interface InvalidToolArguments {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

/**
 * Folds Chat Completions chunks into text, reasoning and tool-call deltas, and {@link result} into the final message.
 * Tool calls are keyed by `index` (else by id, else a new id or name starts one); missing ids stay `""` for the codec.
 * Non-object arguments become `{}`, the raw text kept in a trailing `native` block that is never sent back.
 */
export class OpenAIStreamAssembler {
  private text = "";
  private reasoning = "";
  private readonly calls = new Map<number, PendingCall>();
  private usage: Usage | undefined;
  private finishReason: string | undefined;

  constructor(private readonly providerId: string) {}

  /** True once a choice reported its `finish_reason`: the model finished, rather than the stream breaking. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** The chunks of ours one server chunk becomes. */
  push(chunk: ChatCompletionChunk): ModelChunk[] {
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return [];
    const out: ModelChunk[] = [];
    const delta = (choice.delta ?? {}) as WireDelta;
    const reasoning = firstString(delta.reasoning_content, delta.reasoning);
    if (reasoning) {
      this.reasoning += reasoning;
      out.push({ type: "reasoning_delta", text: reasoning });
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      this.text += delta.content;
      out.push({ type: "text_delta", text: delta.content });
    }
    for (const call of delta.tool_calls ?? []) out.push(this.pushToolCall(call));
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return out;
  }

  /** The complete assistant message, its usage (zero when the server sent none) and why the model stopped. */
  result(): { message: AssistantMessage; usage: Usage; stopReason?: ModelStopReason } {
    const content: ContentBlock[] = [];
    if (this.reasoning) content.push({ type: "reasoning", text: this.reasoning });
    if (this.text) content.push({ type: "text", text: this.text });
    const invalid: InvalidToolArguments[] = [];
    for (const call of [...this.calls.values()].sort((a, b) => a.index - b.index)) {
      const input = parseArguments(call.arguments);
      if (input === undefined) invalid.push({ ...call });
      content.push({ type: "tool_call", id: call.id, name: call.name, input: input ?? {} });
    }
    if (invalid.length) {
      content.push({ type: "native", provider: this.providerId, data: { invalidToolArguments: invalid } });
    }
    const stopReason = toStopReason(this.finishReason);
    return {
      message: { role: "assistant", content },
      usage: this.usage ?? { inputTokens: 0, outputTokens: 0 },
      ...(stopReason ? { stopReason } : {}),
    };
  }

  private pushToolCall(delta: ChatCompletionChunk.Choice.Delta.ToolCall): ModelChunk {
    const call = this.callFor(delta);
    if (delta.id && !call.id) call.id = delta.id;
    const name = delta.function?.name;
    if (name && !call.name) call.name = name;
    const argumentsDelta = delta.function?.arguments;
    if (argumentsDelta) call.arguments += argumentsDelta;
    const out: ModelChunk = { type: "tool_call_delta", index: call.index };
    if (delta.id) out.id = delta.id;
    if (name) out.name = name;
    if (argumentsDelta) out.argumentsDelta = argumentsDelta;
    return out;
  }

  private callFor(delta: ChatCompletionChunk.Choice.Delta.ToolCall): PendingCall {
    let index = typeof delta.index === "number" ? delta.index : undefined;
    if (index === undefined) {
      const byId = delta.id ? [...this.calls.values()].find((call) => call.id === delta.id) : undefined;
      const last = Math.max(-1, ...this.calls.keys());
      index = byId?.index ?? (delta.id || delta.function?.name || last < 0 ? last + 1 : last);
    }
    let call = this.calls.get(index);
    if (!call) {
      call = { index, id: "", name: "", arguments: "" };
      this.calls.set(index, call);
    }
    return call;
  }
}

/** Our usage from OpenAI's: cached prompt tokens from `prompt_tokens_details` or DeepSeek's cache-hit count. */
function toUsage(usage: WireUsage): Usage {
  const out: Usage = { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens;
  if (typeof cached === "number") out.cacheReadTokens = cached;
  return out;
}

/** The arguments as an object: empty text is `{}`; anything that is not a JSON object is `undefined`. */
function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === "string" && value !== "") return value;
  return undefined;
}
