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
export interface OpenAIServerToolCall {
  /** Default `call_<response>_<position>`; `null` leaves the id out, as some compatible servers do. */
  id?: string | null;
  name: string;
  /** An object (sent as its JSON) or the raw argument text (to script invalid JSON). */
  arguments: unknown;
}

/** Token counts to report. */
export interface OpenAIServerUsage {
  prompt: number;
  completion: number;
  /** Cached prompt tokens, reported where `cachedField` says. */
  cached?: number;
  /** OpenAI's `prompt_tokens_details.cached_tokens` (default) or DeepSeek's `prompt_cache_hit_tokens`. */
  cachedField?: "prompt_tokens_details" | "prompt_cache_hit_tokens";
}

/** An OpenAI error body: `{ error: { message, type, param, code } }`. */
export interface OpenAIServerErrorBody {
  message: string;
  /** Default `"server_error"` for 5xx, else `"invalid_request_error"`. */
  type?: string;
  code?: string | number | null;
  param?: string | null;
}

/** A successful answer, streamed as SSE chunks when the request asks for `stream: true`. */
export interface OpenAIServerCompletion {
  text?: string;
  reasoning?: string;
  /** Where reasoning goes in a delta: `reasoning_content` (DeepSeek, vLLM; default) or `reasoning`. */
  reasoningField?: "reasoning_content" | "reasoning";
  toolCalls?: readonly OpenAIServerToolCall[];
  /** Default: about one token per four characters of the request and of the answer. */
  usage?: OpenAIServerUsage;
  /** Characters per content, reasoning or argument delta. Default 4. */
  chunkSize?: number;
  /** Pause before each chunk after the first, in ms. Default 0. */
  delayMs?: number;
  /** Send the argument deltas of parallel calls round-robin, as servers that stream calls concurrently do. */
  interleaveToolCalls?: boolean;
  /**
   * Raw `delta` objects sent instead of the ones built from `reasoning`, `text` and `toolCalls`, one chunk
   * each (the role, finish and usage chunks are still sent): to mimic a server's quirks.
   */
  deltas?: readonly object[];
  /** Default `"tool_calls"` when there are calls, else `"stop"`. */
  finishReason?: string;
  /** Write this many chunks, then destroy the socket: a connection dropped mid-stream. */
  dropAfterChunks?: number;
  /** Write `afterChunks` chunks, then an SSE error event `data: {"error": …}`, and end the response. */
  streamError?: OpenAIServerErrorBody & { afterChunks: number };
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** An HTTP error response, e.g. `{ status: 429, error: { message: "slow down" }, headers: { "retry-after": "1" } }`. */
export interface OpenAIServerErrorResponse {
  status: number;
  error: OpenAIServerErrorBody;
  headers?: Record<string, string>;
}

/** A fixed scripted response. */
export type OpenAIServerStaticResponse = OpenAIServerCompletion | OpenAIServerErrorResponse;

/** One entry of the server's script: a fixed response, or one computed from the request and its 0-based index. */
export type OpenAIServerResponse =
  | OpenAIServerStaticResponse
  | ((
      request: RecordedRequest,
      index: number,
    ) => OpenAIServerStaticResponse | Promise<OpenAIServerStaticResponse>);

/** True for an error response entry. */
export function isErrorResponse(response: OpenAIServerStaticResponse): response is OpenAIServerErrorResponse {
  return "status" in response && "error" in response;
}
