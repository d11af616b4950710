/** Who speaks a message. `system` messages in a history are dropped; the agent owns its system prompt. */
export type Role = "system" | "user" | "assistant" | "tool";

/** Plain text. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** An image on a user message: base64 `data` with its MIME type, or a `url`. */
export interface ImageBlock {
  type: "image";
  mimeType: string;
  data?: string;
  url?: string;
}

/** A tool call the model asked for. `input` is the parsed JSON arguments. */
export interface ToolCallBlock {
  type: "tool_call";
  id: string;
  name: string;
  input: unknown;
}

/** The result of one tool call, fed back to the model. */
export interface ToolResultBlock {
  type: "tool_result";
  id: string;
  content: string;
  isError?: boolean;
}

/** The model's reasoning text. Kept on the assistant message; never sent back to a provider. */
export interface ReasoningBlock {
  type: "reasoning";
  text: string;
}

/** A provider-specific block that must survive checkpoints untouched. */
export interface NativeBlock {
  type: "native";
  provider: string;
  data: unknown;
}

/** A provider-native compaction block (null content = compacted away). */
export interface CompactionBlock {
  type: "compaction";
  content: string | null;
}

/** Every kind of content a message can hold. */
export type ContentBlock =
  TextBlock | ImageBlock | ToolCallBlock | ToolResultBlock | ReasoningBlock | NativeBlock | CompactionBlock;

/** One message of a conversation. */
export interface Message {
  role: Role;
  content: string | ContentBlock[];
}

/** A message the model produced. */
export type AssistantMessage = Message & { role: "assistant" };

/** Builds a text block. */
export function textBlock(text: string): TextBlock {
  return { type: "text", text };
}

/** Builds a tool-result block. */
export function toolResultBlock(id: string, content: string, isError?: boolean): ToolResultBlock {
  return isError ? { type: "tool_result", id, content, isError } : { type: "tool_result", id, content };
}

/** Builds a tool-call block. */
export function toolCallBlock(id: string, name: string, input: unknown): ToolCallBlock {
  return { type: "tool_call", id, name, input };
}

/** Builds an image block from base64 data. */
export function imageBlock(data: string, mimeType: string): ImageBlock {
  return { type: "image", mimeType, data };
}

/** True for a tool-call block. */
export function isToolCallBlock(block: ContentBlock): block is ToolCallBlock {
  return block.type === "tool_call";
}

/** True for a text block. */
export function isTextBlock(block: ContentBlock): block is TextBlock {
  return block.type === "text";
}

/** True for a tool-result block. */
export function isToolResultBlock(block: ContentBlock): block is ToolResultBlock {
  return block.type === "tool_result";
}

/** The blocks of a message; a string content becomes one text block. */
export function contentBlocks(message: Message): ContentBlock[] {
  return typeof message.content === "string" ? [textBlock(message.content)] : message.content;
}

/** The concatenated text of a message's text blocks. */
export function messageText(message: Message): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .filter(isTextBlock)
    .map((block) => block.text)
    .join("");
}

/** Builds a user message. */
export function userMessage(content: string | ContentBlock[]): Message {
  return { role: "user", content };
}

/** Builds an assistant message. */
export function assistantMessage(content: string | ContentBlock[]): AssistantMessage {
  return { role: "assistant", content };
}
