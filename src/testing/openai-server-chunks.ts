import {
  finishReasonOf,
  SYSTEM_FINGERPRINT,
  usageBody,
  wireToolCalls,
  type CompletionContext,
  type WireToolCall,
} from "./openai-server-completion.js";
import type { OpenAIServerCompletion } from "./openai-server-script.js";

/** Characters per delta when the script does not say. */
const DEFAULT_CHUNK_SIZE = 4;

/**
 * The `chat.completion.chunk`s of a streamed answer in OpenAI's order: role, reasoning, content, tool-call deltas
 * (id, type, name and empty arguments first, then argument pieces), an empty delta with `finish_reason`, and, with
 * `stream_options.include_usage`, a last usage chunk with empty `choices` (earlier chunks then carry `usage: null`).
 */
export function completionChunks(completion: OpenAIServerCompletion, context: CompletionContext): object[] {
  const size = Math.max(1, Math.floor(completion.chunkSize ?? DEFAULT_CHUNK_SIZE));
  const includeUsage = wantsUsage(context.request.body);
  const chunk = (delta: object, finishReason: string | null = null): object => ({
    ...envelope(context),
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const deltas = completion.deltas ?? answerDeltas(completion, context, size);
  const chunks = [
    chunk({ role: "assistant", content: "", refusal: null }),
    ...deltas.map((delta) => chunk(delta)),
  ];
  chunks.push(chunk({}, finishReasonOf(completion)));
  if (includeUsage)
    chunks.push({ ...envelope(context), choices: [], usage: usageBody(completion, context.request) });
  return chunks;
}

/** The reasoning deltas, then the content deltas, then the tool-call deltas. */
function answerDeltas(
  completion: OpenAIServerCompletion,
  context: CompletionContext,
  size: number,
): object[] {
  const reasoningField = completion.reasoningField ?? "reasoning_content";
  const deltas: object[] = [];
  for (const piece of pieces(completion.reasoning ?? "", size)) deltas.push({ [reasoningField]: piece });
  for (const piece of pieces(completion.text ?? "", size)) deltas.push({ content: piece });
  const calls = wireToolCalls(completion.toolCalls, context.index);
  for (const delta of toolCallDeltas(calls, size, completion.interleaveToolCalls ?? false)) {
    deltas.push({ tool_calls: [delta] });
  }
  return deltas;
}

function envelope(context: CompletionContext): object {
  return {
    id: context.id,
    object: "chat.completion.chunk",
    created: context.created,
    model: context.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

function wantsUsage(body: unknown): boolean {
  const options = (body as { stream_options?: { include_usage?: unknown } } | undefined)?.stream_options;
  return options?.include_usage === true;
}

/** The tool-call deltas of every call, call after call or round-robin. */
function toolCallDeltas(calls: readonly WireToolCall[], size: number, interleave: boolean): object[] {
  const perCall = calls.map((call, index) => {
    const opening = { index, ...(call.id === undefined ? {} : { id: call.id }), type: "function" };
    return [
      { ...opening, function: { name: call.name, arguments: "" } },
      ...pieces(call.arguments, size).map((piece) => ({ index, function: { arguments: piece } })),
    ];
  });
  if (!interleave) return perCall.flat();
  const out: object[] = [];
  const longest = Math.max(0, ...perCall.map((deltas) => deltas.length));
  for (let step = 0; step < longest; step++) {
    for (const deltas of perCall) {
      const delta = deltas[step];
      if (delta) out.push(delta);
    }
  }
  return out;
}

/** `text` cut into pieces of `size` code points (never splitting a surrogate pair). */
function pieces(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let start = 0; start < points.length; start += size)
    out.push(points.slice(start, start + size).join(""));
  return out;
}
