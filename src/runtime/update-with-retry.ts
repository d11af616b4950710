import { randomUUID } from "node:crypto";
import {
  ApplicationFailure,
  isGrpcServiceError,
  ServiceError,
  WorkflowUpdateFailedError,
} from "@temporalio/client";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { SESSION_BUSY, taskBoundarySignal } from "../contract/messages.js";

/** How many times an update the server dropped unprocessed is sent again. */
const UNPROCESSED_ATTEMPTS = 5;
/**
 * How many times an update the session refused as busy is sent again: each refusal means the session took other
 * work in the same workflow task, a run's or another client's update (it admits one per task), so up to a minute.
 */
const BUSY_ATTEMPTS = 200;
/**
 * The pause before the n-th busy retry: none at first, then drawn below a bound growing to half a second (full
 * jitter: clients refused in one task come back spread out, each with a fair chance at the next).
 */
export const busyPause = (attempt: number, random = Math.random) =>
  attempt < 3 ? 0 : Math.floor(random() * Math.min(500, 10 * 2 ** (attempt - 3)));
/**
 * How many times an update the server pushed back (its in-flight update limit, an aborted update) is sent again:
 * with {@link pushbackPause} that is about a minute of trying, enough for a burst of a thousand updates to drain.
 */
const PUSHBACK_ATTEMPTS = 40;
/** gRPC's status code for a limit reached (`@grpc/grpc-js` is the SDK's dependency, not ours). */
const RESOURCE_EXHAUSTED = 8;
/** Exponential backoff with full jitter: many clients refused at once come back spread out, not in step. */
export const pushbackPause = (attempt: number, random = Math.random) =>
  Math.floor(random() * Math.min(2_000, 25 * 2 ** attempt));

/**
 * Sends an update with the same id on every attempt, again while nothing of it was applied: the session refused it
 * as busy ({@link SESSION_BUSY}; `afterBusy` runs before the next try), the server pushed it back ({@link
 * isServerPushback}) or dropped it unprocessed (worker restart). `send` must reject on refusal, as `executeUpdate` does.
 */
export async function updateWithRetry<T>(
  send: (updateId: string) => Promise<T>,
  afterBusy: () => Promise<unknown>,
  updateId: string = randomUUID(),
): Promise<T> {
  let unprocessedTries = 0;
  let pushbackTries = 0;
  for (let busyTries = 0; ;) {
    try {
      return await send(updateId);
    } catch (error) {
      // A session accepts an update only into a workflow task holding nothing else; the same id, sent again,
      // proves the earlier task finished (src/workflows/admission/update-admission.ts).
      if (isSessionBusy(error) && ++busyTries < BUSY_ATTEMPTS) {
        await pause(busyPause(busyTries));
        // A boundary that cannot be sent (the session just closed) leaves the next attempt to say why.
        await afterBusy().catch(() => undefined);
      } else if (unprocessed(error) && ++unprocessedTries < UNPROCESSED_ATTEMPTS)
        await pause(200 * unprocessedTries);
      // Nothing of the update was applied, and its id makes a late duplicate of an earlier attempt harmless.
      else if (isServerPushback(error) && ++pushbackTries < PUSHBACK_ATTEMPTS)
        await pause(pushbackPause(pushbackTries));
      else throw error;
    }
  }
}

/** What {@link boundaryWhenStuck} needs of a session's workflow handle. */
export interface BoundaryTarget {
  describe(): Promise<{ historyLength: number }>;
  signal(definition: typeof taskBoundarySignal): Promise<void>;
}

/**
 * An `afterBusy` for {@link updateWithRetry}: sends the session's no-op `taskBoundary` signal when the update was
 * refused twice with no new history event between. A worker without the session cached refuses every update after a
 * finished command-less task, and a refusal leaves no event; the signal's event separates the next attempt.
 */
export function boundaryWhenStuck(session: BoundaryTarget): () => Promise<void> {
  let lastLength: number | undefined;
  return async () => {
    const { historyLength } = await session.describe();
    const stuck = historyLength === lastLength;
    lastLength = historyLength;
    if (stuck) await session.signal(taskBoundarySignal);
  };
}

/** Whether the session refused the update only because its workflow task held other work. */
export function isSessionBusy(error: unknown): boolean {
  return (
    error instanceof WorkflowUpdateFailedError &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === SESSION_BUSY
  );
}

/**
 * Whether the server turned the update away before any worker saw it: its limit on in-flight updates per workflow
 * (`RESOURCE_EXHAUSTED`) or an update it aborted (`workflow update was aborted`), but not one a closing workflow did.
 */
export function isServerPushback(error: unknown): boolean {
  const cause =
    error instanceof ServiceError || error instanceof WorkflowUpdateFailedError ? error.cause : error;
  const text = `${errorMessage(error)} ${errorMessage(cause ?? "")}`;
  if (/aborted by closing workflow/i.test(text)) return false;
  return (isGrpcServiceError(cause) && cause.code === RESOURCE_EXHAUSTED) || /update was aborted/i.test(text);
}

function unprocessed(error: unknown): boolean {
  if (!(error instanceof WorkflowUpdateFailedError)) return false;
  return /wasn't processed by worker/.test(`${error.message} ${errorMessage(error.cause ?? "")}`);
}

function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
