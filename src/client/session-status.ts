import type { Client } from "@temporalio/client";
import { queryWithRetry } from "../runtime/query-with-retry.js";
import { workflowTaskFailure } from "../runtime/workflow-task-failure.js";
import { sessionStatusQuery } from "../contract/messages.js";
import type { SessionStatus } from "../contract/session-status.js";

/** How long `describe` waits for a subagent session's own status before listing it without its approvals. */
const CHILD_STATUS_DEADLINE_MS = 3_000;

/** A session's own status (its `sessionStatus` query, asked again while its workflow task fails). */
export function ownStatus(temporal: Client, sessionId: string): Promise<SessionStatus> {
  const handle = temporal.workflow.getHandle(sessionId);
  return queryWithRetry(
    () => handle.query(sessionStatusQuery),
    () => workflowTaskFailure(handle),
  );
}

/**
 * A session's status with its running subagents' approvals and questions (each with the subagent's `sessionId`);
 * `running` becomes the first subagent's `awaiting_*` status.
 */
export async function sessionStatus(temporal: Client, sessionId: string): Promise<SessionStatus> {
  const status = await ownStatus(temporal, sessionId);
  const subagents = status.subagents ?? [];
  const children = await Promise.all(subagents.map((subagent) => childStatus(temporal, subagent.sessionId)));
  for (const [index, subagent] of subagents.entries()) {
    const child = children[index];
    if (!child) continue;
    const from = { sessionId: subagent.sessionId };
    status.pendingApprovals.push(...child.pendingApprovals.map((approval) => ({ ...approval, ...from })));
    status.pendingQuestions.push(...child.pendingQuestions.map((question) => ({ ...question, ...from })));
    if (status.status === "running" && child.status.startsWith("awaiting_")) status.status = child.status;
  }
  return status;
}

/**
 * A subagent session's status, or undefined when it cannot say soon: a child whose worker is gone (or that has
 * not started yet) must not hold its parent's `describe` for the server's query timeout.
 */
function childStatus(temporal: Client, sessionId: string): Promise<SessionStatus | undefined> {
  const deadline = Date.now() + CHILD_STATUS_DEADLINE_MS;
  return temporal.connection
    .withDeadline(deadline, () => temporal.workflow.getHandle(sessionId).query(sessionStatusQuery))
    .catch(() => undefined);
}

/**
 * Where a decision on a call goes: the session, or the running subagent session the call waits in. When neither
 * lists it, the session (whose validator says why it cannot be decided).
 */
export async function decisionTarget(
  temporal: Client,
  sessionId: string,
  callId: string,
  kind: "pendingApprovals" | "pendingQuestions",
): Promise<string> {
  const status = await ownStatus(temporal, sessionId).catch(() => undefined);
  if (!status?.subagents?.length || status[kind].some((pending) => pending.callId === callId))
    return sessionId;
  for (const subagent of status.subagents) {
    const child = await childStatus(temporal, subagent.sessionId);
    if (child?.[kind].some((pending) => pending.callId === callId)) return subagent.sessionId;
  }
  return sessionId;
}
