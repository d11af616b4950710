import type { ToolCallBlock, ToolResultBlock } from "../vocabulary/messages.js";
import type { ModelRequest } from "../vocabulary/model.js";
import type { ToolSpec } from "../vocabulary/tools.js";
import { decodeReactResponse } from "./decode-react-response.js";
import { renderPromptHistory } from "./prompt-history.js";
import { repairPrompt } from "./repair-prompt.js";
import { toolCatalog } from "./tool-catalog.js";
import type { ToolCallCodec } from "./types.js";

/** Options of {@link reactCodec}. */
export interface ReactCodecOptions {
  /** Extra protocol guidance, appended after the built-in instructions. */
  instructions?: string;
}

/** The protocol restated in repair prompts. */
const FORMAT_REMINDER =
  'Reply with either a line "Action: <tool name>" followed by a line "Action Input: <JSON object>", ' +
  'or a line "Final Answer: <answer>".';

function protocol(tools: ToolSpec[], instructions?: string): string {
  return [
    "Reply in one of these two forms.",
    "To call a tool:",
    "Thought: <your reasoning>",
    "Action: <tool name>",
    'Action Input: {"argument":"value"}',
    "To answer:",
    "Thought: <your reasoning>",
    "Final Answer: <your answer>",
    "Call at most one tool per response, then stop: its result comes back as Observation [<call id>]: <result>.",
    "Available tools:",
    toolCatalog(tools),
    instructions,
  ]
    .filter(Boolean)
    .join("\n");
}

function renderCalls(text: string, calls: ToolCallBlock[]): string {
  const thought = text ? [`Thought: ${text}`] : [];
  // A history from another codec may hold several calls in one turn; every one is kept so results line up.
  const actions = calls.map((c) => `Action: ${c.name}\nAction Input: ${JSON.stringify(c.input ?? {})}`);
  return [...thought, ...actions].join("\n");
}

function renderResults(results: ToolResultBlock[]): string {
  return results.map((r) => `Observation [${r.id}]${r.isError ? " (error)" : ""}: ${r.content}`).join("\n");
}

/**
 * A codec for small models that follow a textual trace better than JSON: `Thought:`, then `Action:` + `Action Input:`
 * (JSON) or `Final Answer:`, one tool per response. Encode puts protocol and tool catalogue in `system`, past calls
 * and results as trace lines (`Observation [id]: …`); output is buffered. Decoding: {@link decodeReactResponse}.
 */
export function reactCodec(options: ReactCodecOptions = {}): ToolCallCodec {
  return {
    name: "react",
    streaming: "buffer",
    encode(request: ModelRequest, tools: ToolSpec[]): ModelRequest {
      const { tools: _tools, toolChoice: _toolChoice, ...rest } = request;
      return {
        ...rest,
        system: [request.system, protocol(tools, options.instructions)].filter(Boolean).join("\n\n"),
        messages: renderPromptHistory(request.messages, { calls: renderCalls, results: renderResults }),
      };
    },
    decode: decodeReactResponse,
    repairPrompt: (error, attempt, tools) => repairPrompt(error, attempt, tools, FORMAT_REMINDER),
  };
}
