import type { ModelStopReason } from "../kernel/vocabulary/model.js";

/**
 * The seed's stop reason for an OpenAI `finish_reason`: `length` means the output limit cut the answer off.
 * Unknown reasons (`content_filter`, a server's own) say nothing rather than guess.
 */
export function toStopReason(finishReason: string | undefined): ModelStopReason | undefined {
  if (finishReason === "length") return "max_tokens";
  if (finishReason === "tool_calls" || finishReason === "function_call") return "tool_use";
  if (finishReason === "stop") return "stop";
  return undefined;
}
