import { ActivityFailure, ApplicationFailure, TimeoutFailure, isCancellation } from "@temporalio/workflow";
import { AbortError, ProviderError, errorMessage } from "../../kernel/vocabulary/errors.js";
import { FAILURE_TYPES } from "../../contract/activity-types.js";

/** The ApplicationFailure behind an activity failure, if the activity threw one. */
export function applicationCause(error: unknown): ApplicationFailure | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof ApplicationFailure ? cause : undefined;
}

/** True when an activity failed because it timed out (its worker died or stopped heartbeating). */
export function isActivityTimeout(error: unknown): boolean {
  return error instanceof ActivityFailure && error.cause instanceof TimeoutFailure;
}

/**
 * Maps a failed model activity to the error the kernel understands: a cancellation becomes an AbortError, a
 * provider failure a ProviderError with the provider's status and message, anything else a ProviderError.
 */
export function modelFailureToError(error: unknown): Error {
  if (isCancellation(error)) return new AbortError("cancelled");
  const cause = applicationCause(error);
  if (cause?.type === FAILURE_TYPES.provider || cause?.type === FAILURE_TYPES.unknownModel) {
    const status = (cause.details?.[0] as { status?: number } | undefined)?.status;
    return new ProviderError(cause.message, status);
  }
  const message =
    cause?.message ??
    (error instanceof ActivityFailure && error.cause ? error.cause.message : errorMessage(error));
  return new ProviderError(message);
}
