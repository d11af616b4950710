import { APIError } from "openai";
import { AgentError, ProviderError } from "../kernel/vocabulary/errors.js";
import { isRetryableProviderError } from "../kernel/middleware/is-retryable-provider-error.js";
import { toProviderError } from "./openai-provider-error.js";

/** Whether a failed model call deserves another attempt, and how long the provider asked to wait. */
export interface ProviderErrorClassification {
  retryable: boolean;
  /** The provider's `retry-after`, in milliseconds, when it sent one. */
  retryAfterMs?: number;
}

/**
 * Classifies a model-call failure for a retry policy (the durable runtime maps it onto Temporal's):
 * a `ProviderError` without status (network failure, dropped stream) or with status 408, 409, 425, 429 or any
 * 5xx is retryable; any other 4xx is not, and neither is an abort or a non-provider error (a bug would fail the
 * same way again). Raw `openai` client errors are mapped with {@link toProviderError} first. 425 is kept
 * retryable to agree with the `retry()` middleware's default set.
 * @example classifyProviderError(new ProviderError("slow down", 429, { retryAfterMs: 2000 }))
 * // { retryable: true, retryAfterMs: 2000 }
 */
export function classifyProviderError(error: unknown): ProviderErrorClassification {
  const mapped = error instanceof APIError ? toProviderError(error) : error;
  if (!isProviderError(mapped)) return { retryable: false };
  const status = mapped.status;
  const retryable =
    isRetryableProviderError(mapped) || (status !== undefined && status >= 500 && status <= 599);
  const retryAfterMs = mapped.retryAfterMs;
  return retryAfterMs === undefined ? { retryable } : { retryable, retryAfterMs };
}

/** A ProviderError from this or another copy of the errors module. */
function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError || (AgentError.isInstance(error) && error.name === "ProviderError");
}
