import { ServiceError } from "@temporalio/client";

/** How long a query is asked again while the session cannot answer (its worker died holding a workflow task). */
const QUERY_PATIENCE_MS = 20_000;

/** gRPC codes that mean "not now" rather than "no": CANCELLED, DEADLINE_EXCEEDED, UNAVAILABLE. */
const TRANSIENT = new Set<number>([1, 4, 14]);

/**
 * Runs a query, asking again while the server answers "not now": a session whose worker died in the middle of a
 * workflow task cannot answer until that task times out, and the server may cancel the query before then.
 */
export async function queryWithRetry<T>(query: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let pause = 250; ; pause = Math.min(pause * 2, 2_000)) {
    try {
      return await query();
    } catch (error) {
      if (!isTransient(error) || Date.now() - started > QUERY_PATIENCE_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "number" && TRANSIENT.has(code);
}
