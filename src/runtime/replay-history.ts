import { historyFromJSON } from "@temporalio/common/lib/proto-utils.js";
import { Worker } from "@temporalio/worker";
import { loadWorkflowBundle } from "./workflow-bundle.js";

/**
 * Replays an exported session history against the current workflow code. Resolves when it replays cleanly;
 * rejects with Temporal's DeterminismViolationError when the code would take a different path.
 */
export async function replaySessionHistory(history: unknown, workflowId = "replay"): Promise<void> {
  await Worker.runReplayHistory(
    { workflowBundle: await loadWorkflowBundle() },
    historyFromJSON(history),
    workflowId,
  );
}
