import { historyFromJSON } from "@temporalio/common/lib/proto-utils.js";
import { Worker } from "@temporalio/worker";
import { withPayloadStorage, type PayloadStorageOption } from "../storage/payload-storage.js";
import { withPayloadEncryption } from "../encryption/payload-encryption.js";
import { loadWorkflowBundle } from "./workflow-bundle.js";

/**
 * Replays an exported session history against the current workflow code. Resolves when it replays cleanly;
 * rejects with Temporal's DeterminismViolationError when the code would take a different path. Payloads the
 * history holds by reference are read from `storage` (default the environment's, like workers and clients); encrypted
 * payloads are decrypted with the environment's keys (LITE_AGENT_ENCRYPTION_*).
 */
export async function replaySessionHistory(
  history: unknown,
  workflowId = "replay",
  storage?: PayloadStorageOption,
): Promise<void> {
  await Worker.runReplayHistory(
    {
      workflowBundle: await loadWorkflowBundle(),
      dataConverter: withPayloadStorage(withPayloadEncryption(undefined, undefined), storage),
    },
    historyFromJSON(history),
    workflowId,
  );
}
