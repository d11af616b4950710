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
 * Classifies a model-call failure for a retry policy: a `ProviderError` without status (network, dropped stream) or
 * with 408, 409, 425 (as `retry()`'s default set), 429 or 5xx is retryable, with its `retryAfterMs`; other 4xx, aborts
 * and non-provider errors are not. Raw `openai` client errors are mapped with {@link toProviderError} first.
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
