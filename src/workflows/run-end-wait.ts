import { condition, setHandler } from "@temporalio/workflow";
import { checkAwaitRunEnd } from "./payload-checks.js";
import { awaitRunEndUpdate, HANDLER_DESCRIPTIONS, type AwaitRunEndResult } from "./messages.js";
import type { SessionState } from "./session-state.js";

/**
 * Clients waiting on one session's run ends at once. Each waiting update holds one of the server's in-flight update
 * slots of the execution (ten by default), which approvals and runs need too: clients beyond these are refused and
 * read at their own pace, as every client did before `awaitRunEnd`.
 */
export const MAX_RUN_END_WAITERS = 3;

/**
 * Wires `awaitRunEnd`: a follower's wake-up at a run's end. It adds no command; the update's two events are the
 * only history it costs, once per run and follower (docs/decisions/0014, phase 14).
 */
export function registerRunEndWait(session: SessionState): void {
  let waiting = 0;
  setHandler(
    awaitRunEndUpdate,
    async (request): Promise<AwaitRunEndResult> => {
      waiting++;
      try {
        // A run that ends leaves its summary; a run suspended by a mid-run continue-as-new is neither pending nor ended.
        await condition(() => ended(session, request.runId) || session.continuingAsNew);
      } finally {
        waiting--;
      }
      return { ended: ended(session, request.runId) };
    },
    {
      validator: (request) => {
        const problem = checkAwaitRunEnd(request) ?? refusal(session, request.runId, waiting);
        if (problem) throw new TypeError(`awaitRunEnd: ${problem}`);
      },
      description: HANDLER_DESCRIPTIONS.awaitRunEnd,
    },
  );
}

function ended(session: SessionState, runId: string): boolean {
  return session.runSummary(runId) !== undefined;
}

function refusal(session: SessionState, runId: string, waiting: number): string | undefined {
  if (ended(session, runId)) return `run '${runId}' has ended`;
  if (!session.hasPendingRun(runId)) return `no run '${runId}' is queued or running in this session`;
  if (session.continuingAsNew) return "the session is continuing as new; ask its next execution";
  if (waiting >= MAX_RUN_END_WAITERS)
    return `${MAX_RUN_END_WAITERS} clients already wait on this session's runs; read the stream instead`;
  return undefined;
}
