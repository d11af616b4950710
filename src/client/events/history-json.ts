import type { temporal } from "@temporalio/proto";
import { historyToJSON } from "@temporalio/common/lib/proto-utils.js";

/** A workflow history in Temporal's canonical JSON form (what `temporal workflow show --output json` prints). */
export function historyToJSONObject(history: temporal.api.history.v1.IHistory): unknown {
  return JSON.parse(historyToJSON(history as temporal.api.history.v1.History)) as unknown;
}
