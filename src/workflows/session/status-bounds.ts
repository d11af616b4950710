/**
 * Bounds on what the session's status (the `sessionStatus` query, the UI's current details) carries, so no answer
 * the workflow sends can grow past Temporal's payload limit however large the inputs it describes.
 */

/** The longest JSON of a pending call's input shown in the status; longer inputs become a clipped preview. */
export const MAX_STATUS_INPUT_CHARS = 2_000;
/** How many queued run ids the status lists (the first ones). */
export const MAX_LISTED_QUEUED_RUNS = 100;
/** The longest failure reason the status keeps. */
export const MAX_FAILURE_CHARS = 1_000;
/** The longest rejected-input line the status keeps. */
export const MAX_REJECTION_CHARS = 300;

/** `text`, cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The input itself when its JSON is short, else a clipped string preview of the JSON. */
export function previewInput(input: unknown): unknown {
  const json = JSON.stringify(input) ?? "";
  return json.length > MAX_STATUS_INPUT_CHARS ? clip(json, MAX_STATUS_INPUT_CHARS) : input;
}
