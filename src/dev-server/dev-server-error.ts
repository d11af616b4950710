import { AgentError } from "../kernel/vocabulary/errors.js";

/** The local Temporal dev server could not be found, installed, started or stopped. */
export class DevServerError extends AgentError {}

/** No `temporal` binary could be found or installed; the message lists every way to get one. */
export class TemporalCliNotFoundError extends DevServerError {
  constructor(
    message: string,
    /** One line per install attempt that failed (empty when installing was disabled). */
    readonly attempts: readonly string[] = [],
  ) {
    super(message);
  }
}
