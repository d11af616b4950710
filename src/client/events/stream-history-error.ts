/** Why entries of a session's stream could not be read from its history (a history that does not replay). */
export class StreamHistoryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StreamHistoryError";
  }
}
