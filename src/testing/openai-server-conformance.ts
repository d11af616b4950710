import type { ConformanceScript, ConformanceStep } from "./provider-conformance.js";
import type { OpenAIServer } from "./openai-server.js";
import type { OpenAIServerStaticResponse } from "./openai-server-script.js";

/**
 * The conformance script for a provider talking to an {@link OpenAIServer}: each step is the server's next response.
 * Errors before streaming are HTTP errors; mid-stream ones an SSE error event with the status as `code` after a few
 * text chunks; a slow step streams a long answer one character every 20 ms.
 */
export function openAIServerConformanceScript(server: OpenAIServer): ConformanceScript {
  return { next: (step) => server.script(toServerResponse(step)) };
}

function toServerResponse(step: ConformanceStep): OpenAIServerStaticResponse {
  if ("slow" in step) return { text: "slow ".repeat(200), chunkSize: 1, delayMs: 20 };
  if ("errorMidStream" in step) {
    const message = `scripted ${step.errorMidStream} mid-stream`;
    return { text: step.text, streamError: { afterChunks: 3, message, code: step.errorMidStream } };
  }
  if ("error" in step) return { status: step.error, error: { message: `scripted ${step.error}` } };
  const usage = step.usage && {
    prompt: step.usage.inputTokens,
    completion: step.usage.outputTokens,
    ...(step.usage.cacheReadTokens === undefined ? {} : { cached: step.usage.cacheReadTokens }),
  };
  const call = "toolCall" in step ? step.toolCall : undefined;
  const toolCalls = call && [{ id: call.id, name: call.name, arguments: call.input }];
  return { text: step.text, ...(toolCalls && { toolCalls }), ...(usage && { usage }) };
}
