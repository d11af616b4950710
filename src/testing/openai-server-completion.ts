import type {
  RecordedRequest,
  OpenAIServerCompletion,
  OpenAIServerToolCall,
} from "./openai-server-script.js";

/** What every response of one request shares: its id, creation time, model and script position. */
export interface CompletionContext {
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
  /** 0-based index of the chat request, used for default tool-call ids. */
  index: number;
  request: RecordedRequest;
}

/** The fingerprint OpenAI puts on every completion; a constant here. */
export const SYSTEM_FINGERPRINT = "fp_local_openai_server";

/** A tool call as it appears on the wire, with its id (or none) and its argument text. */
export interface WireToolCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/** The scripted calls with default ids and their argument text (objects as JSON, strings raw). */
export function wireToolCalls(
  calls: readonly OpenAIServerToolCall[] | undefined,
  index: number,
): WireToolCall[] {
  return (calls ?? []).map((call, position) => ({
    id: call.id === null ? undefined : (call.id ?? `call_${index + 1}_${position}`),
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
}

/** The finish reason: scripted, else `tool_calls` when the model called tools, else `stop`. */
export function finishReasonOf(completion: OpenAIServerCompletion): string {
  return completion.finishReason ?? (completion.toolCalls?.length ? "tool_calls" : "stop");
}

/**
 * The `usage` object. Unscripted counts are estimated at four characters a token, so they are plausible and
 * stable; the cache count appears only when `cached` was scripted.
 */
export function usageBody(
  completion: OpenAIServerCompletion,
  request: RecordedRequest,
): Record<string, unknown> {
  const body = request.body as { messages?: unknown } | undefined;
  const answer =
    (completion.text ?? "") + (completion.reasoning ?? "") + JSON.stringify(completion.toolCalls ?? []);
  const prompt = completion.usage?.prompt ?? Math.ceil(JSON.stringify(body?.messages ?? []).length / 4);
  const output = completion.usage?.completion ?? Math.ceil(answer.length / 4);
  const usage: Record<string, unknown> = {
    prompt_tokens: prompt,
    completion_tokens: output,
    total_tokens: prompt + output,
  };
  const cached = completion.usage?.cached;
  if (cached === undefined) return usage;
  if (completion.usage?.cachedField === "prompt_cache_hit_tokens") {
    return { ...usage, prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: prompt - cached };
  }
  return { ...usage, prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 } };
}

/** The non-streaming `chat.completion` object. */
export function completionBody(
  completion: OpenAIServerCompletion,
  context: CompletionContext,
): Record<string, unknown> {
  const calls = wireToolCalls(completion.toolCalls, context.index);
  const message: Record<string, unknown> = {
    role: "assistant",
    content: completion.text ?? null,
    refusal: null,
  };
  if (completion.reasoning) message[completion.reasoningField ?? "reasoning_content"] = completion.reasoning;
  if (calls.length) {
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: context.id,
    object: "chat.completion",
    created: context.created,
    model: context.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(completion) }],
    usage: usageBody(completion, context.request),
  };
}
