/**
 * Where one archived stretch of a session's transcript is: a blob written through the worker's payload storage
 * (`driver` + `key`, under the session's key prefix), holding `count` messages in `bytes` bytes. Without `key`,
 * the worker had no storage configured and the `count` messages were not archived.
 */
export interface TranscriptSegmentRef {
  key?: string;
  driver?: string;
  count: number;
  bytes: number;
}

/** What a session carries of its transcript: small, whatever the length of the conversation. */
export interface TranscriptState {
  /**
   * How many leading messages of the current conversation are already archived or are compaction output (a
   * summary, a snip note, a blanked result). Between compactions a conversation only grows by appending, so the
   * messages after them are exactly those not archived yet.
   */
  archivedCount: number;
  /** The archived stretches, oldest first. */
  segments: TranscriptSegmentRef[];
  /** How many compactions the session made (a compaction that gained no messages adds no segment). */
  compactions: number;
}
