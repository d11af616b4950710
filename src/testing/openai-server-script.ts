/** One request the server received, as recorded for assertions. */
export interface RecordedRequest {
  method: string;
  /** The path with its query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The JSON body, parsed; `undefined` when there was none or it was not JSON. */
  body: unknown;
  rawBody: string;
}

/** A tool call the scripted model makes. */
export interface ScriptedServerToolCall {
  /** Default `call_<response>_<position>`; `null` leaves the id out, as some compatible servers do. */
  id?: string | null;
  name: string;
  /** An object (sent as its JSON) or the raw argument text (to script invalid JSON). */
  arguments: unknown;
}

/** Token counts to report. */
export interface ScriptedServerUsage {
  prompt: number;
  completion: number;
  /** Cached prompt tokens, reported where `cachedField` says. */
  cached?: number;
  /** OpenAI's `prompt_tokens_details.cached_tokens` (default) or DeepSeek's `prompt_cache_hit_tokens`. */
  cachedField?: "prompt_tokens_details" | "prompt_cache_hit_tokens";
}

/** An OpenAI error body: `{ error: { message, type, param, code } }`. */
export interface ScriptedErrorBody {
  message: string;
  /** Default `"server_error"` for 5xx, else `"invalid_request_error"`. */
  type?: string;
  code?: string | number | null;
  param?: string | null;
}

/** A successful answer, streamed as SSE chunks when the request asks for `stream: true`. */
export interface ScriptedCompletion {
  text?: string;
  reasoning?: string;
  /** Where reasoning goes in a delta: `reasoning_content` (DeepSeek, vLLM; default) or `reasoning`. */
  reasoningField?: "reasoning_content" | "reasoning";
  toolCalls?: readonly ScriptedServerToolCall[];
  /** Default: about one token per four characters of the request and of the answer. */
  usage?: ScriptedServerUsage;
  /** Characters per content, reasoning or argument delta. Default 4. */
  chunkSize?: number;
  /** Pause before each chunk after the first, in ms. Default 0. */
  delayMs?: number;
  /** Send the argument deltas of parallel calls round-robin, as servers that stream calls concurrently do. */
  interleaveToolCalls?: boolean;
  /** Default `"tool_calls"` when there are calls, else `"stop"`. */
  finishReason?: string;
  /** Write this many chunks, then destroy the socket: a connection dropped mid-stream. */
  dropAfterChunks?: number;
  /** Write `afterChunks` chunks, then an SSE error event `data: {"error": …}`, and end the response. */
  streamError?: ScriptedErrorBody & { afterChunks: number };
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** An HTTP error response, e.g. `{ status: 429, error: { message: "slow down" }, headers: { "retry-after": "1" } }`. */
export interface ScriptedErrorResponse {
  status: number;
  error: ScriptedErrorBody;
  headers?: Record<string, string>;
}

/** A fixed scripted response. */
export type ScriptedStaticResponse = ScriptedCompletion | ScriptedErrorResponse;

/** One entry of the server's script: a fixed response, or one computed from the request and its 0-based index. */
export type ScriptedResponse =
  | ScriptedStaticResponse
  | ((request: RecordedRequest, index: number) => ScriptedStaticResponse | Promise<ScriptedStaticResponse>);

/** True for an error response entry. */
export function isScriptedError(response: ScriptedStaticResponse): response is ScriptedErrorResponse {
  return "status" in response && "error" in response;
}
