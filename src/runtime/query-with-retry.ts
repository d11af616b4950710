import { ServiceError } from "@temporalio/client";
import { AgentError } from "../kernel/vocabulary/errors.js";

/** How long a query is asked again while the session cannot answer (its worker died holding a workflow task). */
const QUERY_PATIENCE_MS = 20_000;

/** gRPC codes that mean "not now" rather than "no": CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE. */
const TRANSIENT = new Set<number>([1, 4, 14]);
/** gRPC FAILED_PRECONDITION: with the message below, the server refuses queries while a workflow task retries. */
const FAILED_PRECONDITION = 9;
const TASK_RETRYING = /Workflow Task in failed state/i;

/** The session cannot answer queries: its workflow task fails (the message says why) or keeps retrying. */
export class WorkflowTaskFailingError extends AgentError {}

/**
 * Runs a query, asking again while the server answers "not now" (a session whose worker died mid workflow task cannot
 * answer until that task times out and is retried). Throws WorkflowTaskFailingError when `whyFailing` names a task
 * that fails for good (see workflowTaskFailure) or when the task keeps retrying past the patience.
 */
export async function queryWithRetry<T>(
  query: () => Promise<T>,
  whyFailing?: () => Promise<string | undefined>,
): Promise<T> {
  const started = Date.now();
  for (let pause = 250, attempt = 1; ; pause = Math.min(pause * 2, 2_000), attempt++) {
    try {
      return await query();
    } catch (error) {
      const retrying = isTaskRetrying(error);
      if (retrying) {
        const why = await whyFailing?.();
        if (why) throw new WorkflowTaskFailingError(`its workflow task fails: ${why}`, { cause: error });
      }
      if (!retrying && !isTransient(error)) throw error;
      // The first "not now" is always asked again, however long it took: a worker that evicts a session drops the
      // queries it held, and each waits out the server's query timeout (30 s), longer than this patience.
      if (attempt > 1 && Date.now() - started > QUERY_PATIENCE_MS) {
        if (!retrying) throw error;
        const waited = Math.round(QUERY_PATIENCE_MS / 1000);
        throw new WorkflowTaskFailingError(`its workflow task kept retrying for ${waited} s`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function grpcCode(error: unknown): number | undefined {
  if (!(error instanceof ServiceError)) return undefined;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "number" ? code : undefined;
}

function isTransient(error: unknown): boolean {
  const code = grpcCode(error);
  return code !== undefined && TRANSIENT.has(code);
}

function isTaskRetrying(error: unknown): boolean {
  if (grpcCode(error) !== FAILED_PRECONDITION) return false;
  const cause = (error as ServiceError).cause;
  return cause instanceof Error && TASK_RETRYING.test(cause.message);
}
