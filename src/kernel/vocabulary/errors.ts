const AGENT_ERROR = Symbol.for("lite-agent.error");

/**
 * The root of every error the agent raises. `isInstance` works across module copies and the workflow sandbox,
 * where `instanceof` can fail.
 */
export class AgentError extends Error {
  readonly [AGENT_ERROR] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /** True when `value` is an AgentError from any copy of this module. */
  static isInstance(value: unknown): value is AgentError {
    return typeof value === "object" && value !== null && AGENT_ERROR in value;
  }
}

/** A model provider failed. `status` is the HTTP status when there was one. */
export class ProviderError extends AgentError {
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options);
    this.retryAfterMs = options?.retryAfterMs;
  }
  /** The delay the provider asked for (`retry-after`), when it gave one. */
  readonly retryAfterMs: number | undefined;
}

/** A tool failed in a way that is not a normal error result. */
export class ToolError extends AgentError {}

/** The model's output could not be decoded into text and tool calls. */
export class CodecError extends AgentError {
  constructor(
    message: string,
    readonly raw?: string,
  ) {
    super(message);
  }
}

/** The run used up its turns. Declared for callers; the kernel ends with `max_turns` instead of throwing. */
export class MaxTurnsError extends AgentError {}

/** The run was aborted. */
export class AbortError extends AgentError {
  constructor(message = "aborted") {
    super(message);
  }
}

/** Another writer appended to the session log first. */
export class CheckpointConflictError extends AgentError {
  constructor(
    readonly sessionId: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`checkpoint conflict on session ${sessionId}: expected head ${expected}, found ${actual}`);
  }
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : JSON.stringify(error);
}

/** True when `error` is an abort (ours, or a DOM/Temporal one). */
export function isAbortError(error: unknown): boolean {
  if (error instanceof AbortError) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === "AbortError" || name === "CancelledFailure";
}

/** Wraps any thrown value as an AgentError, keeping AgentErrors as they are. */
export function toAgentError(error: unknown): AgentError {
  if (AgentError.isInstance(error)) return error;
  if (isAbortError(error)) return new AbortError(errorMessage(error));
  return new AgentError(errorMessage(error), { cause: error });
}
