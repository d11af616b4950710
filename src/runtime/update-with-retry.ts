import { randomUUID } from "node:crypto";
import { ApplicationFailure, WorkflowUpdateFailedError } from "@temporalio/client";
import { errorMessage } from "../kernel/errors.js";
import { SESSION_BUSY } from "../workflows/messages.js";

/** How many times an update the server dropped unprocessed is sent again. */
const UNPROCESSED_ATTEMPTS = 5;
/**
 * How many times an update the session refused as busy is sent again: each refusal means the session took other
 * work in the same workflow task, which a run does every few milliseconds at most, so a few tries suffice.
 */
const BUSY_ATTEMPTS = 50;
/** The pause before the n-th busy retry: none at first, then growing to half a second. */
const busyPause = (attempt: number) => Math.min(500, attempt < 3 ? 0 : 10 * 2 ** (attempt - 3));

/** After this many busy refusals in a row, each attempt is preceded by a task boundary (see updateWithRetry). */
const BUSY_BEFORE_BOUNDARY = 2;

/**
 * Sends an update (`send` gets the update id to use: the same on every attempt), and sends it again when nothing of
 * it was applied:
 * - the session refused it as busy ({@link SESSION_BUSY}): it accepts an update only into a workflow task that holds
 *   nothing else, and the same id, sent again, proves the earlier task finished (src/workflows/update-admission.ts).
 *   Refused twice in a row, it calls `markBoundary` (the session's `taskBoundary` signal) before each next attempt: a
 *   worker without the session cached refuses every attempt until an event separates it from the last finished task;
 * - the server dropped it because the workflow task that carried it completed without processing it ("wasn't
 *   processed by worker": seen right after a worker restart, while the session is being replayed).
 * `send` must reject when the update is refused, as `executeUpdate` does (`startUpdate` hands back a handle instead).
 */
export async function updateWithRetry<T>(
  send: (updateId: string) => Promise<T>,
  markBoundary: () => Promise<unknown>,
  updateId: string = randomUUID(),
): Promise<T> {
  let unprocessedTries = 0;
  for (let busyTries = 0; ;) {
    try {
      return await send(updateId);
    } catch (error) {
      if (isSessionBusy(error) && ++busyTries < BUSY_ATTEMPTS) {
        await pause(busyPause(busyTries));
        // A boundary that cannot be sent (the session just closed) leaves the next attempt to say why.
        if (busyTries >= BUSY_BEFORE_BOUNDARY) await markBoundary().catch(() => undefined);
      } else if (unprocessed(error) && ++unprocessedTries < UNPROCESSED_ATTEMPTS)
        await pause(200 * unprocessedTries);
      else throw error;
    }
  }
}

/** Whether the session refused the update only because its workflow task held other work. */
export function isSessionBusy(error: unknown): boolean {
  return (
    error instanceof WorkflowUpdateFailedError &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === SESSION_BUSY
  );
}

function unprocessed(error: unknown): boolean {
  if (!(error instanceof WorkflowUpdateFailedError)) return false;
  return /wasn't processed by worker/.test(`${error.message} ${errorMessage(error.cause ?? "")}`);
}

function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
