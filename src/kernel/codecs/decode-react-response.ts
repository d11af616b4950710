import { CodecError } from "../vocabulary/errors.js";
import { messageText, type AssistantMessage } from "../vocabulary/messages.js";
import { deterministicCallId } from "./call-id.js";
import { jsonObjectSpan } from "./json-object-span.js";
import type { DecodedResponse } from "./types.js";

/** A line that opens an action or the final answer; `Action Input:` does not match. */
const MARKER = /^[ \t]*(Action|Final Answer)[ \t]*:/im;

/**
 * Reads a ReAct response (see `reactCodec`); the first `Action:` or `Final Answer:` line decides. An action needs
 * an `Action Input:` JSON line and gives one call, keeping the thought before it as text; what follows (an invented
 * `Observation:`) is ignored. Text with neither is the final answer. Throws CodecError on a nameless/non-JSON action.
 */
export function decodeReactResponse(message: AssistantMessage): DecodedResponse {
  const raw = messageText(message).trim();
  const marker = MARKER.exec(raw);
  if (!marker) return { text: raw, calls: [] };
  const after = raw.slice(marker.index + marker[0].length);
  if (marker[1]?.toLowerCase() === "final answer") return { text: after.trim(), calls: [] };

  const lineEnd = after.indexOf("\n");
  const name = unquote(lineEnd < 0 ? after : after.slice(0, lineEnd));
  if (!name) throw new CodecError("the ReAct Action line is missing a tool name", raw);
  const rest = lineEnd < 0 ? "" : after.slice(lineEnd + 1);
  const inputLine = /^\s*Action Input[ \t]*:/i.exec(rest);
  if (!inputLine) throw new CodecError("the ReAct Action is missing an Action Input line with JSON", raw);
  const input = parseActionInput(rest.slice(inputLine[0].length), raw);
  const thought = raw
    .slice(0, marker.index)
    .trim()
    .replace(/^Thought[ \t]*:\s*/i, "");
  return { text: thought, calls: [{ id: deterministicCallId(raw, 0, name, input), name, input }] };
}

/** Models often write the tool name as `echo` in backticks or quotes. */
function unquote(name: string): string {
  return name.trim().replace(/^[`"']+|[`"']+$/g, "");
}

function parseActionInput(text: string, raw: string): unknown {
  let body = text.trim();
  const fence = /^```[\w-]*[ \t]*\r?\n?/.exec(body);
  if (fence) body = body.slice(fence[0].length).trim();
  const json = body.startsWith("{") ? (jsonObjectSpan(body) ?? body) : (body.split("\n")[0] ?? "").trim();
  if (!json) throw new CodecError("the ReAct Action Input is empty", raw);
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new CodecError(`the ReAct Action Input is not valid JSON: ${(error as Error).message}`, raw);
  }
}
