/**
 * A piece of a model call's live output. `key` names the model call (one activity; it is `<runId>:<n>`),
 * `attempt` the activity attempt, and `at` the character offset of `text` within that attempt's output of this
 * `kind`: together they let a client drop what a retried attempt repeats. Kept small: every byte is paid per batch.
 */
export interface StreamDelta {
  key: string;
  attempt: number;
  kind: "text" | "reasoning";
  at: number;
  text: string;
  /** Set on the last delta of an attempt (it may carry no text). */
  end?: boolean;
}
