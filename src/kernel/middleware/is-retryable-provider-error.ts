import { AgentError, ProviderError } from "../vocabulary/errors.js";

/**
 * HTTP statuses worth another attempt: timeouts, conflicts, too-early, rate limits and transient server
 * failures. Every other status (400, 401, 403, 404, 422, …) would fail the same way again.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/** True for a ProviderError, including one from another copy of the errors module. */
function isProviderError(error: unknown): error is ProviderError {
  if (error instanceof ProviderError) return true;
  // `instanceof` fails across module copies (and the workflow sandbox); the class name survives.
  return AgentError.isInstance(error) && error.name === "ProviderError";
}

/**
 * The default `retryOn`: a ProviderError with no status (a network failure) or a retryable status.
 * Anything else, including programming errors and aborts, is not retried.
 */
export function isRetryableProviderError(error: unknown): boolean {
  if (!isProviderError(error)) return false;
  return error.status === undefined || RETRYABLE_STATUSES.has(error.status);
}
