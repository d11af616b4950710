import { CodecError } from "../vocabulary/errors.js";
import { messageText, type AssistantMessage } from "../vocabulary/messages.js";
import type { ToolCall } from "../vocabulary/tools.js";
import { deterministicCallId } from "./call-id.js";
import { jsonObjectSpan } from "./json-object-span.js";
import type { DecodedResponse } from "./types.js";

type JsonObject = Record<string, unknown>;

/**
 * Reads a JSON-protocol response (see `jsonCodec`): the first fenced object, else the response itself, else an
 * embedded `{"type":"tool_calls"|"final"…}`, ignoring text after it; common call aliases are accepted. Prose without
 * one is the final answer. Throws CodecError on bad JSON, a non-object, or a call/final object missing its parts.
 */
export function decodeJsonResponse(message: AssistantMessage): DecodedResponse {
  const raw = messageText(message).trim();
  const candidate = findProtocolObject(raw);
  // Prose without a protocol object is the final answer: models without tool training often drop the wrapper on
  // their last reply, and failing a correct answer would cost a repair round trip or the run.
  if (candidate === undefined) return { text: raw, calls: [] };
  const object = parseObject(candidate, raw);
  if (object.type === "final") return { text: finalText(object, raw), calls: [] };
  const calls = readCalls(object, candidate, raw);
  if (calls) return { text: "", calls };
  if (object.type === "tool_calls")
    throw new CodecError('a "tool_calls" response needs a "calls" array', raw);
  if (typeof object.text === "string") return { text: object.text, calls: [] };
  return { text: raw, calls: [] };
}

const FENCE = /```[\w-]*[ \t]*\r?\n?([\s\S]*?)```/g;
const EMBEDDED = /\{\s*"type"\s*:\s*"(?:tool_calls|final)"/;

function findProtocolObject(raw: string): string | undefined {
  for (const match of raw.matchAll(FENCE)) {
    const body = (match[1] ?? "").trim();
    if (body.startsWith("{")) return jsonObjectSpan(body) ?? body;
  }
  if (raw.startsWith("{")) return jsonObjectSpan(raw) ?? raw;
  const embedded = EMBEDDED.exec(raw);
  if (embedded) return jsonObjectSpan(raw, embedded.index) ?? raw.slice(embedded.index);
  return undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseObject(candidate: string, raw: string): JsonObject {
  let payload: unknown;
  try {
    payload = JSON.parse(candidate);
  } catch (error) {
    throw new CodecError(`invalid JSON in the tool protocol response: ${(error as Error).message}`, raw);
  }
  if (!isObject(payload)) throw new CodecError("the tool protocol response must be a JSON object", raw);
  return payload;
}

function finalText(object: JsonObject, raw: string): string {
  if (typeof object.text !== "string") throw new CodecError('a "final" response needs a string "text"', raw);
  return object.text;
}

function readCalls(object: JsonObject, candidate: string, raw: string): ToolCall[] | undefined {
  let list = object.calls ?? object.tool_calls;
  if (list === undefined && (object.tool !== undefined || object.name !== undefined)) list = [object];
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.length === 0) {
    throw new CodecError('"calls" must be a non-empty array of tool calls', raw);
  }
  return list.map((entry: unknown, index) => readCall(entry, index, candidate, raw));
}

function readCall(entry: unknown, index: number, candidate: string, raw: string): ToolCall {
  if (!isObject(entry)) throw new CodecError(`tool call ${index} must be a JSON object`, raw);
  const fn = isObject(entry.function) ? entry.function : {};
  const name = entry.name ?? entry.tool ?? fn.name;
  if (typeof name !== "string" || name.trim() === "") {
    throw new CodecError(`tool call ${index} is missing a tool name`, raw);
  }
  const input = readInput(entry.input ?? entry.arguments ?? entry.args ?? fn.arguments ?? {}, index, raw);
  const trimmed = name.trim();
  const id =
    typeof entry.id === "string" && entry.id
      ? entry.id
      : deterministicCallId(candidate, index, trimmed, input);
  return { id, name: trimmed, input };
}

/** Arguments may come as a JSON string (the OpenAI wire form); anything else is used as given. */
function readInput(value: unknown, index: number, raw: string): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new CodecError(`the arguments of tool call ${index} are not valid JSON`, raw);
  }
}
