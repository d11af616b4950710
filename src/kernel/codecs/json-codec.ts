import type { ToolCallBlock, ToolResultBlock } from "../vocabulary/messages.js";
import type { ModelRequest } from "../vocabulary/model.js";
import type { ToolSpec } from "../vocabulary/tools.js";
import { decodeJsonResponse } from "./decode-json-response.js";
import { renderPromptHistory } from "./prompt-history.js";
import { repairPrompt } from "./repair-prompt.js";
import { toolCatalog } from "./tool-catalog.js";
import type { ToolCallCodec } from "./types.js";

/** Options of {@link jsonCodec}. */
export interface JsonCodecOptions {
  /** Extra protocol guidance, appended after the built-in instructions. */
  instructions?: string;
}

/** The protocol restated in repair prompts. */
const FORMAT_REMINDER =
  'Reply with exactly one JSON object: {"type":"tool_calls","calls":[{"name":"<tool name>","input":{}}]} ' +
  'or {"type":"final","text":"<answer>"}.';

function protocol(tools: ToolSpec[], instructions?: string): string {
  return [
    "Reply with exactly one JSON object and nothing else.",
    'To call tools: {"type":"tool_calls","calls":[{"name":"<tool name>","input":{<arguments>}}]}',
    'To give your final answer: {"type":"final","text":"<answer>"}',
    'Tool results come back as {"type":"tool_results","results":[{"id":"<call id>","content":"<result>","isError":false}]},',
    "in the order of the calls.",
    "Available tools:",
    toolCatalog(tools),
    instructions,
  ]
    .filter(Boolean)
    .join("\n");
}

function renderCalls(_text: string, calls: ToolCallBlock[]): string {
  // The protocol has no room for text beside calls, and ids are left out so the model does not invent its own.
  return JSON.stringify({
    type: "tool_calls",
    calls: calls.map((c) => ({ name: c.name, input: c.input ?? {} })),
  });
}

function renderResults(results: ToolResultBlock[]): string {
  const items = results.map((r) => ({ id: r.id, content: r.content, isError: r.isError === true }));
  return JSON.stringify({ type: "tool_results", results: items });
}

/**
 * A codec for models without a tool API: the response is one JSON object, `{"type":"tool_calls","calls":[{name,
 * input}]}` or `{"type":"final","text"}`. Encode puts protocol and tool catalogue in `system` and past calls/results
 * in as JSON text; output is buffered, so protocol JSON never streams. Decoding: {@link decodeJsonResponse}.
 */
export function jsonCodec(options: JsonCodecOptions = {}): ToolCallCodec {
  return {
    name: "json",
    streaming: "buffer",
    encode(request: ModelRequest, tools: ToolSpec[]): ModelRequest {
      const { tools: _tools, toolChoice: _toolChoice, ...rest } = request;
      return {
        ...rest,
        system: [request.system, protocol(tools, options.instructions)].filter(Boolean).join("\n\n"),
        messages: renderPromptHistory(request.messages, { calls: renderCalls, results: renderResults }),
      };
    },
    decode: decodeJsonResponse,
    repairPrompt: (error, attempt, tools) => repairPrompt(error, attempt, tools, FORMAT_REMINDER),
  };
}
