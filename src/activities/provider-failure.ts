import { ApplicationFailure } from "@temporalio/common";
import { ProviderError, errorMessage } from "../kernel/errors.js";
import { FAILURE_TYPES } from "../common/activity-types.js";

/** Statuses worth retrying: timeouts, conflicts, rate limits and server errors (and no status: a network failure). */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/**
 * Turns a provider failure into Temporal retry semantics: retryable failures honour the provider's
 * `retry-after`; other 4xx are non-retryable, so the run ends at once with the provider's message.
 */
export function providerFailure(error: unknown): ApplicationFailure {
  const status = error instanceof ProviderError ? error.status : undefined;
  const retryAfterMs = error instanceof ProviderError ? error.retryAfterMs : undefined;
  const message = errorMessage(error);
  return ApplicationFailure.create({
    type: FAILURE_TYPES.provider,
    message: status === undefined ? message : `${message} (status ${status})`,
    nonRetryable: !isRetryableStatus(status),
    details: [{ status }],
    ...(retryAfterMs !== undefined ? { nextRetryDelay: retryAfterMs } : {}),
    cause: error instanceof Error ? error : undefined,
  });
}
