import { WorkflowUpdateFailedError } from "@temporalio/client";
import { errorMessage } from "../kernel/errors.js";

/** How many times an update the server dropped unprocessed is sent again. */
const ATTEMPTS = 5;

/**
 * Sends an update, and sends it again when the server rejected it only because the workflow task that carried it
 * completed without processing it ("wasn't processed by worker": seen right after a worker restart, while the
 * session is being replayed). Nothing of such an update was applied, so sending it again is safe.
 */
export async function updateWithRetry<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= ATTEMPTS || !unprocessed(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

function unprocessed(error: unknown): boolean {
  if (!(error instanceof WorkflowUpdateFailedError)) return false;
  return /wasn't processed by worker/.test(`${error.message} ${errorMessage(error.cause ?? "")}`);
}
