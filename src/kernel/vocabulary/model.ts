import type { AbortSignalLike } from "./ports.js";
import type { AssistantMessage, Message } from "./messages.js";
import type { ToolSpec } from "./tool-calls.js";

/** Token counts of one model call, or of a whole run. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheCreationTokens?: number;
}

/** A usage with every count at zero. */
export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/** Sums two usages; cache counts appear when either side reports them. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  if (a.cacheReadTokens !== undefined || b.cacheReadTokens !== undefined) {
    sum.cacheReadTokens = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  }
  if (a.cacheCreationTokens !== undefined || b.cacheCreationTokens !== undefined) {
    sum.cacheCreationTokens = (a.cacheCreationTokens ?? 0) + (b.cacheCreationTokens ?? 0);
  }
  return sum;
}

/** How the model may choose tools. */
export type ToolChoice = "auto" | "none" | "required" | { tool: string };

/** How a model samples its answer; each setting absent means the provider's default. */
export interface SamplingSettings {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  seed?: number;
  stopSequences?: string[];
  toolChoice?: ToolChoice;
}

/** One request to a model, after the codec encoded it. */
export interface ModelRequest extends SamplingSettings {
  model: string;
  system?: string;
  messages: Message[];
  tools?: ToolSpec[];
  /** Provider-native context edits chosen by the ContextEngine for this request. */
  contextEdits?: NativeContextEdits;
}

/** Provider-native context management applied to one request. */
export interface NativeContextEdits {
  clearToolUses?: boolean;
  clearThinking?: boolean;
  compact?: boolean;
}

/**
 * Why the model stopped (the seed's `StopReason`): `max_tokens` when the answer was cut off at the output limit
 * (OpenAI's `finish_reason: "length"`).
 */
export type ModelStopReason = "stop" | "tool_use" | "max_tokens";

/**
 * A streamed piece of a model response. Exactly one `message_done` ends every stream; its `stopReason` is
 * optional (a provider that does not know says nothing, which reads as a normal stop).
 */
export type ModelChunk =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "tool_call_delta"; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: "message_done"; message: AssistantMessage; usage: Usage; stopReason?: ModelStopReason };

/** What a provider can do for context management. */
export interface ProviderContextCapabilities {
  contextWindow?: number;
  countTokens?(request: ModelRequest): Promise<number>;
  clearToolUses?: boolean;
  clearThinking?: boolean;
  compact?: boolean;
  promptCache?: ProviderPromptCache;
}

/** Caching of the prompt prefix that the provider does by itself. */
export interface ProviderPromptCache {
  mode: "automatic";
}

/**
 * The seed's provider-native request edit. Here a capability is a flag and the edit travels on the request
 * (`ModelRequest.contextEdits`) for the provider to apply: docs/porting.md.
 */
export type ProviderContextEdit = (
  request: ModelRequest,
  signal?: AbortSignalLike,
) => ModelRequest | Promise<ModelRequest>;

/** A streaming model adapter. */
export interface ModelProvider {
  readonly id: string;
  stream(request: ModelRequest, signal?: AbortSignalLike): AsyncIterable<ModelChunk>;
  readonly context?: ProviderContextCapabilities;
}
