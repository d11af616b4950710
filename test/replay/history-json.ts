import { historyFromJSON, historyToJSON, type History } from "@temporalio/common/lib/proto-utils.js";

/** A history as canonical proto JSON (the form `temporal workflow show --output json` writes), 2-space indented. */
export function historyToJson(history: History): string {
  return JSON.stringify(JSON.parse(historyToJSON(history)), null, 2);
}

/** Parses canonical proto JSON into a history the replayer accepts. */
export function historyFromJson(json: unknown): History {
  return historyFromJSON(json);
}
