import type { OpenAIServerErrorBody } from "./openai-server-script.js";

/**
 * The `error` object of an OpenAI error response or stream error event, with every field OpenAI sends
 * (`message`, `type`, `param`, `code`). The type defaults to OpenAI's: `server_error` for 5xx, otherwise
 * `invalid_request_error`.
 */
export function errorBody(error: OpenAIServerErrorBody, status?: number): Record<string, unknown> {
  const fallbackType = status !== undefined && status >= 500 ? "server_error" : "invalid_request_error";
  return {
    message: error.message,
    type: error.type ?? fallbackType,
    param: error.param ?? null,
    code: error.code ?? null,
  };
}
