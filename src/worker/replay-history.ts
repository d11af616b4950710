import { historyFromJSON } from "@temporalio/common/lib/proto-utils.js";
import { REPLAYING_A_HISTORY, temporalWorker } from "../runtime/temporal-worker.js";
import { withPayloadStorage, type PayloadStorageOption } from "../storage/payload-storage.js";
import { withPayloadEncryption } from "../encryption/payload-encryption.js";
import { loadWorkflowBundle } from "./workflow-bundle.js";

/**
 * Replays an exported session history against the current workflow code; rejects with DeterminismViolationError when
 * the code would take another path. Payloads held by reference are read from `storage` (default: the environment's),
 * and encrypted ones are decrypted with the environment's keys (LITE_AGENT_ENCRYPTION_*).
 */
export async function replaySessionHistory(
  history: unknown,
  workflowId = "replay",
  storage?: PayloadStorageOption,
): Promise<void> {
  const { Worker } = temporalWorker(REPLAYING_A_HISTORY);
  await Worker.runReplayHistory(
    {
      workflowBundle: await loadWorkflowBundle(),
      dataConverter: withPayloadStorage(withPayloadEncryption(undefined, undefined), storage),
    },
    historyFromJSON(history),
    workflowId,
  );
}
