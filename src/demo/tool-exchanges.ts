import {
  contentBlocks,
  isToolCallBlock,
  isToolResultBlock,
  type Message,
} from "../kernel/vocabulary/messages.js";

/** A tool call of the conversation and, once it ran, its result. */
export interface ToolExchange {
  id: string;
  name: string;
  input: unknown;
  /** The result's text; undefined while the call has no result. */
  result?: string;
  isError?: boolean;
}

/** Every tool call in a conversation, in order, paired with its result by call id. */
export function toolExchanges(messages: readonly Message[]): ToolExchange[] {
  const results = new Map<string, { content: string; isError?: boolean }>();
  for (const block of messages.flatMap(contentBlocks)) {
    if (isToolResultBlock(block)) results.set(block.id, block);
  }
  const calls = messages
    .filter((message) => message.role === "assistant")
    .flatMap(contentBlocks)
    .filter(isToolCallBlock);
  return calls.map((call) => {
    const result = results.get(call.id);
    const exchange: ToolExchange = { id: call.id, name: call.name, input: call.input };
    if (result) Object.assign(exchange, { result: result.content }, result.isError ? { isError: true } : {});
    return exchange;
  });
}
