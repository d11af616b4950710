import type { ToolCallBlock } from "./messages.js";

/** A JSON Schema object, as sent to the model. */
export type JsonSchema = Record<string, unknown>;

/** What the model sees of a tool. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** One tool call, as the kernel passes it to middleware and tools. */
export type ToolCall = Omit<ToolCallBlock, "type">;

/** The outcome of one tool call. */
export interface ToolResult {
  id: string;
  name: string;
  content: string;
  isError?: boolean;
}
