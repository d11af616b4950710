import { APIError, APIUserAbortError } from "openai";
import { isOverflowError } from "../kernel/compaction/is-overflow-error.js";
import {
  AbortError,
  AgentError,
  ProviderError,
  errorMessage,
  isAbortError,
} from "../kernel/vocabulary/errors.js";
import type { AbortSignalLike } from "../kernel/vocabulary/ports.js";
import { parseRetryAfterMs } from "./openai-retry-after.js";

/** OpenAI's error code for a prompt that does not fit the model's context window. */
const OVERFLOW_CODE = "context_length_exceeded";

/**
 * Turns what the `openai` client threw into our errors: aborts → `AbortError`; HTTP errors → `ProviderError` with
 * status, message and `retryAfterMs`; in-stream error events → `ProviderError` with their numeric `code` as status;
 * connection failures and dropped or malformed streams → `ProviderError` without status. AgentErrors pass through.
 */
export function toProviderError(error: unknown, signal?: AbortSignalLike): AgentError {
  if (AgentError.isInstance(error)) return error;
  if (signal?.aborted || error instanceof APIUserAbortError || isAbortError(error)) return new AbortError();
  if (error instanceof APIError) return fromApiError(error);
  return new ProviderError(`connection error: ${detailedMessage(error)}`, undefined, { cause: error });
}

function fromApiError(error: APIError): ProviderError {
  if (error.status === undefined && error.error === undefined) {
    // APIConnectionError and its timeout subclass: no response at all.
    return new ProviderError(`connection error: ${detailedMessage(error)}`, undefined, { cause: error });
  }
  const status = error.status ?? statusFromCode(error.code);
  return new ProviderError(providerMessage(error), status, {
    cause: error,
    retryAfterMs: parseRetryAfterMs(error.headers),
  });
}

/**
 * The message the provider wrote, without the client's status prefix. An overflow reported only through its
 * code gets the code appended, so `isOverflowError` still recognises it.
 */
function providerMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === "string" && body.message !== "" ? body.message : error.message;
  if (error.code === OVERFLOW_CODE && !isOverflowError(new Error(message))) {
    return `${message} (${OVERFLOW_CODE})`;
  }
  return message;
}

/** An HTTP status carried in an error body's `code` (a number, or a numeric string). */
function statusFromCode(code: unknown): number | undefined {
  const value =
    typeof code === "number" ? code : typeof code === "string" && /^\d{3}$/.test(code) ? +code : NaN;
  return value >= 400 && value <= 599 ? value : undefined;
}

/** The error's message followed by its cause's (fetch hides the socket error in `cause`). */
function detailedMessage(error: unknown): string {
  const message = errorMessage(error);
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error && cause.message && cause.message !== message
    ? `${message} (${cause.message})`
    : message;
}
