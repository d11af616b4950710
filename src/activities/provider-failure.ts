import { ApplicationFailure } from "@temporalio/common";
import { ProviderError, errorMessage } from "../kernel/vocabulary/errors.js";
import { FAILURE_TYPES } from "../contract/activity-types.js";
import { classifyProviderError } from "../providers/openai-classify-error.js";

/**
 * Turns a provider failure into Temporal retry semantics (one classification for every provider): 408, 409,
 * 425, 429, 5xx and network failures are retried, honouring the provider's `retry-after`; other 4xx are not, so
 * the run ends at once with the provider's message.
 */
export function providerFailure(error: unknown): ApplicationFailure {
  const { retryable, retryAfterMs } = classifyProviderError(error);
  const status = error instanceof ProviderError ? error.status : undefined;
  const message = errorMessage(error);
  return ApplicationFailure.create({
    type: FAILURE_TYPES.provider,
    message: status === undefined ? message : `${message} (status ${status})`,
    nonRetryable: !retryable,
    details: [{ status }],
    ...(retryAfterMs !== undefined ? { nextRetryDelay: retryAfterMs } : {}),
    cause: error instanceof Error ? error : undefined,
  });
}
