import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from "@temporalio/client";
import { ApplicationFailure, WorkflowExecutionAlreadyStartedError } from "@temporalio/common";
import { AgentError, errorMessage } from "../kernel/errors.js";

/** A session operation failed; the message says why, in the session's terms. */
export class SessionError extends AgentError {
  constructor(
    message: string,
    readonly sessionId: string,
    readonly reason: "not_found" | "closed" | "rejected" | "unavailable",
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Translates Temporal client errors into SessionErrors with messages a user can act on. */
export function toSessionError(error: unknown, sessionId: string, operation: string): Error {
  if (error instanceof SessionError) return error;
  if (error instanceof WorkflowNotFoundError) {
    return new SessionError(`${operation}: session '${sessionId}' not found`, sessionId, "not_found", {
      cause: error,
    });
  }
  if (error instanceof WorkflowExecutionAlreadyStartedError) {
    return new SessionError(
      `${operation}: session '${sessionId}' is closed and cannot be reopened`,
      sessionId,
      "closed",
      { cause: error },
    );
  }
  if (error instanceof WorkflowUpdateFailedError) {
    const cause =
      error.cause instanceof ApplicationFailure ? error.cause.message : errorMessage(error.cause ?? error);
    const reason = /is closed/.test(cause) ? "closed" : "rejected";
    return new SessionError(`${operation} rejected: ${cause}`, sessionId, reason, { cause: error });
  }
  const message = errorMessage(error);
  if (/NOT_FOUND|workflow not found|not found for ID/i.test(message) && !/already completed/i.test(message)) {
    return new SessionError(`${operation}: session '${sessionId}' not found`, sessionId, "not_found", {
      cause: error,
    });
  }
  if (/already completed|workflow execution already completed/i.test(message)) {
    return new SessionError(`${operation}: session '${sessionId}' is closed`, sessionId, "closed", {
      cause: error,
    });
  }
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
    return new SessionError(`${operation}: the session did not answer in time`, sessionId, "unavailable", {
      cause: error,
    });
  }
  return error instanceof Error ? error : new AgentError(message);
}
