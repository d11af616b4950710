import type { AgentEvent, RunResult } from "../../kernel/vocabulary/events.js";
import { ZERO_USAGE } from "../../kernel/vocabulary/model.js";
import type { CancelRunRequest } from "../../contract/requests.js";
import type { ActiveRun } from "../run/active-run.js";
import type { ApprovalBoard } from "../approvals/approval-board.js";
import type { RunQueue } from "./run-queue.js";
import type { RunRecord } from "./run-record.js";

/** What a cancel reaches of the session: the running run, the queue, the board, the record, the stream. */
export interface CancelTarget {
  readonly current: Pick<ActiveRun, "runId" | "cancel"> | undefined;
  readonly queue: Pick<RunQueue, "remove">;
  readonly board: Pick<ApprovalBoard, "settleRun">;
  readonly record: Pick<RunRecord, "abort">;
  publish(runId: string, event: AgentEvent): void;
}

/** Cancels the running run and/or queued runs (`cancelRun`, `cancel`); returns the ids cancelled. */
export function cancelRuns(session: CancelTarget, request: CancelRunRequest): string[] {
  const cancelled: string[] = [];
  const current = session.current;
  if (current && (request.runId === undefined || request.runId === current.runId)) {
    settleWaits(session, current.runId, request.reason);
    current.cancel(request.reason ?? "cancelled");
    cancelled.push(current.runId);
  }
  for (const queued of session.queue.remove(request.runId)) {
    const result: RunResult = { messages: [], text: "", usage: ZERO_USAGE, stopReason: "aborted" };
    session.publish(queued.runId, { type: "done", reason: "aborted", result });
    session.record.abort(queued.runId);
    cancelled.push(queued.runId);
  }
  return cancelled;
}

/**
 * A cancelled run settles what it waited on at once: its pending approvals and questions end `cancelled` (a
 * later decision is refused with that reason) and the status leaves `awaiting_approval`. The gate reports each
 * approval as `approval_resolved` (deny); a question, which has no such event, is reported here.
 */
function settleWaits(session: CancelTarget, runId: string, reason: string | undefined): void {
  const how = reason && reason !== "cancelled" ? `cancelled: ${reason}` : "cancelled";
  for (const question of session.board.settleRun(runId, how).questions) {
    const message = `question '${question.callId}' was not answered: the run was ${how}`;
    session.publish(runId, { type: "diagnostic", level: "info", code: "question_cancelled", message });
  }
}
