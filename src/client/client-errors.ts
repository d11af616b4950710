import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from "@temporalio/client";
import { ApplicationFailure, WorkflowExecutionAlreadyStartedError } from "@temporalio/common";
import { AgentError, errorMessage } from "../kernel/vocabulary/errors.js";
import { WorkflowTaskFailingError } from "../runtime/query-with-retry.js";

/** A session operation failed; the message says why, in the session's terms. */
export class SessionError extends AgentError {
  /** The client operation that failed (`approve`, `describe`...), which the message starts with; if known. */
  readonly operation: string | undefined;

  constructor(
    message: string,
    readonly sessionId: string,
    readonly reason: "not_found" | "closed" | "rejected" | "unavailable",
    options?: { cause?: unknown; operation?: string },
  ) {
    super(message, { cause: options?.cause });
    this.operation = options?.operation;
  }
}

/**
 * The session workflow's update and query names: its validators prefix their rejections with them
 * (`decideToolCall: no pending approval...`), a name no caller typed.
 */
const HANDLER_PREFIX =
  /^(?:decideToolCall|answerQuestion|queueSteer|cancelRun|closeSession|interrupt|sessionStatus|readStream): /;

/** A workflow's rejection in the caller's words: without the internal handler name it starts with. */
export function withoutHandlerName(message: string): string {
  return message.replace(HANDLER_PREFIX, "");
}

/** Translates Temporal client errors into SessionErrors with messages a user can act on. */
export function toSessionError(error: unknown, sessionId: string, operation: string): Error {
  if (error instanceof SessionError) return error;
  const options = { cause: error, operation };
  if (error instanceof WorkflowNotFoundError) {
    return new SessionError(
      `${operation}: session '${sessionId}' not found`,
      sessionId,
      "not_found",
      options,
    );
  }
  if (error instanceof WorkflowExecutionAlreadyStartedError) {
    return new SessionError(
      `${operation}: session '${sessionId}' is closed and cannot be reopened`,
      sessionId,
      "closed",
      options,
    );
  }
  if (error instanceof WorkflowUpdateFailedError) {
    const why = withoutHandlerName(
      error.cause instanceof ApplicationFailure ? error.cause.message : errorMessage(error.cause ?? error),
    );
    const reason = /is closed/.test(why) ? "closed" : "rejected";
    return new SessionError(`${operation} rejected: ${why}`, sessionId, reason, options);
  }
  if (error instanceof WorkflowTaskFailingError) {
    return new SessionError(
      `${operation}: session '${sessionId}' cannot answer: ${error.message}`,
      sessionId,
      "unavailable",
      options,
    );
  }
  const message = errorMessage(error);
  if (/NOT_FOUND|workflow not found|not found for ID/i.test(message) && !/already completed/i.test(message)) {
    return new SessionError(
      `${operation}: session '${sessionId}' not found`,
      sessionId,
      "not_found",
      options,
    );
  }
  if (/already completed|workflow execution already completed/i.test(message)) {
    return new SessionError(`${operation}: session '${sessionId}' is closed`, sessionId, "closed", options);
  }
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
    return new SessionError(
      `${operation}: the session did not answer in time`,
      sessionId,
      "unavailable",
      options,
    );
  }
  return error instanceof Error ? error : new AgentError(message);
}
