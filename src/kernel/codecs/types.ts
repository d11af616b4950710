import type { CodecError } from "../vocabulary/errors.js";
import type { AssistantMessage, Message } from "../vocabulary/messages.js";
import type { ModelRequest } from "../vocabulary/model.js";
import type { ToolCall, ToolSpec } from "../vocabulary/tools.js";

/** What a codec reads out of an assistant message. */
export interface DecodedResponse {
  text: string;
  calls: ToolCall[];
}

/**
 * Translates between the kernel's tool calls and what a model speaks. `passthrough` codecs stream text as it
 * comes; `buffer` codecs decode the whole response first and emit the final text as one delta.
 */
export interface ToolCallCodec {
  readonly name: string;
  readonly streaming?: "passthrough" | "buffer";
  encode(request: ModelRequest, tools: ToolSpec[]): ModelRequest;
  /** Throws CodecError on malformed output. */
  decode(message: AssistantMessage): DecodedResponse;
  /** The user message that asks the model to fix malformed output. */
  repairPrompt?(error: CodecError, attempt: number, tools: ToolSpec[]): Message;
}
