import type { temporal } from "@temporalio/proto";
import { historyFromJSON, historyToJSON } from "@temporalio/common/lib/proto-utils.js";
import { Worker } from "@temporalio/worker";
import { loadWorkflowBundle } from "./workflow-bundle.js";

/** A workflow history in Temporal's canonical JSON form (what `temporal workflow show --output json` prints). */
export function historyToJSONObject(history: temporal.api.history.v1.IHistory): unknown {
  return JSON.parse(historyToJSON(history as temporal.api.history.v1.History)) as unknown;
}

/**
 * Replays an exported session history against the current workflow code. Resolves when it replays cleanly;
 * rejects with Temporal's DeterminismViolationError when the code would take a different path.
 */
export async function replaySessionHistory(history: unknown, workflowId = "replay"): Promise<void> {
  await Worker.runReplayHistory({ workflowBundle: await loadWorkflowBundle() }, historyFromJSON(history), workflowId);
}
