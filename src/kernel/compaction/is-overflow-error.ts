import { AgentError, ProviderError } from "../vocabulary/errors.js";

/** Provider messages that mean the request did not fit the model's context window. */
const OVERFLOW_MESSAGE = /prompt[\s_]?too[\s_]?long|context[\s_]?length|too many tokens|maximum context/i;

/** How deep to follow `cause` links (activity failures wrap the provider error). */
const MAX_CAUSE_DEPTH = 5;

/**
 * True when a model call failed because the prompt overflowed the context window: a `ProviderError` with status 413
 * or a message saying so (`prompt too long`, `context length`, `too many tokens`, …). Follows `cause` links, so an
 * overflow wrapped by another error (such as a Temporal activity failure) is still recognised.
 */
export function isOverflowError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    if (isProviderError(current) && current.status === 413) return true;
    if (OVERFLOW_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/** A ProviderError from this or another copy of the module. */
function isProviderError(error: Error): error is ProviderError {
  return error instanceof ProviderError || (AgentError.isInstance(error) && error.name === "ProviderError");
}
