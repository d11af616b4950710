import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { ModelRequest, ToolChoice } from "../kernel/vocabulary/model.js";
import type { ToolSpec } from "../kernel/vocabulary/tools.js";
import { toOpenAIMessages } from "./openai-messages.js";

/**
 * Which body field carries `maxTokens`. `max_tokens` is deprecated by OpenAI but is what Ollama, LM Studio,
 * llama.cpp and older vLLM accept; OpenAI's reasoning models (o-series, gpt-5) require `max_completion_tokens`.
 */
export type MaxTokensField = "max_tokens" | "max_completion_tokens";

/** What {@link toChatCompletionParams} needs besides the request. */
export interface ChatCompletionParamsOptions {
  /** Used when the request names no model. */
  defaultModel?: string;
  /** Default `"max_tokens"`, for compatibility with local servers. */
  maxTokensField?: MaxTokensField;
}

/**
 * The streaming Chat Completions body for a request, asking for a final usage chunk. `tool_choice` is sent only with
 * tools (OpenAI rejects it otherwise); unset sampling options are left out so server defaults apply; provider-native
 * context edits are ignored.
 */
export function toChatCompletionParams(
  request: ModelRequest,
  options: ChatCompletionParamsOptions = {},
): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model || options.defaultModel || "",
    messages: toOpenAIMessages(request.system, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools?.length) {
    params.tools = request.tools.map(toOpenAITool);
    if (request.toolChoice !== undefined) params.tool_choice = toOpenAIToolChoice(request.toolChoice);
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.topP !== undefined) params.top_p = request.topP;
  if (request.seed !== undefined) params.seed = request.seed;
  if (request.maxTokens !== undefined) params[options.maxTokensField ?? "max_tokens"] = request.maxTokens;
  if (request.stopSequences?.length) params.stop = request.stopSequences;
  return params;
}

function toOpenAITool(tool: ToolSpec): ChatCompletionTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function toOpenAIToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  if (typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.tool } };
}
