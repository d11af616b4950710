import { condition } from "@temporalio/workflow";
import type { PermissionPlan } from "../../contract/agent-plan.js";
import { approversFor, signingFor } from "../../plan/approver-rules.js";
import { ASK_USER_TOOL } from "../../kernel/builtin-tools/ask-user-tool.js";
import { AgentError } from "../../kernel/vocabulary/errors.js";
import type {
  ApprovalAnswer,
  ApprovalHandler,
  InputHandler,
  UserAnswer,
  UserQuestion,
} from "../../kernel/permission/types.js";
import { defaultRedactor } from "../../kernel/permission/redact.js";
import type { ToolCall } from "../../kernel/vocabulary/tools.js";
import type { ApprovalBoard } from "./approval-board.js";
import type { PendingApproval, PendingQuestion } from "../../contract/session-status.js";
import { previewInput } from "../session/status-bounds.js";

/** How long a durable approval or question waits by default. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** What the durable handlers need of the session. */
export interface ApprovalHost {
  readonly board: ApprovalBoard;
  readonly runId: string;
  now(): number;
  /** Called whenever something starts or stops waiting, so status, search attributes and details follow. */
  changed(): void;
  /** Ends the run with a fatal error (the `fail` timeout policy). */
  fail(error: AgentError): void;
}

function timeoutOf(plan: PermissionPlan | undefined): number {
  return plan?.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
}

function describeWait(ms: number): string {
  return ms % 3_600_000 === 0
    ? `${ms / 3_600_000} h`
    : ms % 60_000 === 0
      ? `${ms / 60_000} min`
      : `${ms / 1000} s`;
}

/**
 * The `permission` gate's approver in durable runs: the call waits in the session (without using a worker)
 * until a decision arrives by update or signal, or the approval timeout applies the plan's policy.
 */
export function durableApprover(host: ApprovalHost, plan: PermissionPlan | undefined): ApprovalHandler {
  return {
    async request(call: ToolCall, ctx): Promise<ApprovalAnswer> {
      // A run resumed after continue-as-new waits on the approval it carried, until its original deadline.
      const pending = host.board.resumeApproval(call.id) ?? askApproval(host, plan, call, ctx?.reason);
      const timeoutMs = pending.expiresAt - pending.requestedAt;
      host.changed();
      try {
        await waitUnlessCancelled(
          () =>
            condition(() => host.board.decisionFor(call.id) !== undefined, remaining(host, pending), {
              // What the Temporal UI's timeline names the timer (encrypted like every summary).
              summary: `approval of ${call.name} (call ${call.id}) times out`,
            }),
          () => host.board.settleApprovalIfPending(call.id, "cancelled"),
        );
        const decided = host.board.decisionFor(call.id);
        if (decided) {
          host.board.settleApproval(
            call.id,
            `${decided.decision === "allow" ? "allowed" : "denied"}${decided.actor ? ` by ${decided.actor}` : ""}${signedWith(decided.keyId)}`,
          );
          return decided;
        }
        host.board.settleApproval(call.id, "timed out");
        return onTimeout(host, plan, `no decision on ${call.name} within ${describeWait(timeoutMs)}`);
      } finally {
        host.changed();
      }
    },
  };
}

/** Puts a new approval for the call on the board, due `approvalTimeoutMs` from now. */
function askApproval(
  host: ApprovalHost,
  plan: PermissionPlan | undefined,
  call: ToolCall,
  reason: string | undefined,
): PendingApproval {
  const requestedAt = host.now();
  const approvers = approversFor(plan, call.name);
  const signing = signingFor(plan, call.name);
  const pending: PendingApproval = {
    callId: call.id,
    runId: host.runId,
    tool: call.name,
    input: previewInput(defaultRedactor(call.input)),
    ...(reason !== undefined ? { reason } : {}),
    requestedAt,
    expiresAt: requestedAt + timeoutOf(plan),
    ...(approvers ? { approvers } : {}),
    ...(signing ? { signing } : {}),
  };
  host.board.addApproval(pending);
  return pending;
}

/** Puts a new question on the board, due `approvalTimeoutMs` from now. */
function askQuestion(
  host: ApprovalHost,
  plan: PermissionPlan | undefined,
  callId: string,
  question: UserQuestion,
): PendingQuestion {
  const requestedAt = host.now();
  const signing = signingFor(plan, ASK_USER_TOOL);
  const pending: PendingQuestion = {
    callId,
    runId: host.runId,
    ...question,
    requestedAt,
    expiresAt: requestedAt + timeoutOf(plan),
    ...(signing ? { signing } : {}),
  };
  host.board.addQuestion(pending);
  return pending;
}

/**
 * How long the wait's timer runs: to the wait's deadline (the whole timeout for a new wait; what is left of it for a
 * carried one, at least 1 ms, as a timer cannot be shorter). Only the timer's duration depends on the clock, and a
 * replay does not compare durations.
 */
function remaining(host: ApprovalHost, pending: { expiresAt: number }): number {
  return Math.max(1, pending.expiresAt - host.now());
}

/**
 * Waits; when the wait is cancelled (the run was cancelled, or ended by a `fail` timeout policy), settles what was
 * waited on first, so nothing stays pending and a late decision is refused with the reason.
 */
async function waitUnlessCancelled(wait: () => Promise<boolean>, settle: () => void): Promise<void> {
  try {
    await wait();
  } catch (error) {
    settle();
    throw error;
  }
}

/** ` (signed, key k)` for a signed decision's settle note; empty for an unsigned one. */
function signedWith(keyId: string | undefined): string {
  return keyId === undefined ? "" : ` (signed, key ${keyId})`;
}

function onTimeout(host: ApprovalHost, plan: PermissionPlan | undefined, reason: string): ApprovalAnswer {
  const policy = plan?.onTimeout ?? "deny";
  if (policy === "allow") return { decision: "allow", by: "auto", actor: "timeout", reason };
  if (policy === "fail") host.fail(new AgentError(`approval timed out: ${reason}`));
  return { decision: "deny", by: "auto", actor: "timeout", reason: `approval timed out: ${reason}` };
}

/** The `ask_user` input handler in durable runs: the question waits in the session like an approval. */
export function durableInput(host: ApprovalHost, plan: PermissionPlan | undefined): InputHandler {
  return {
    async request(question: UserQuestion, ctx): Promise<UserAnswer> {
      const callId = ctx?.call?.id ?? `question-${host.now()}`;
      // A run resumed after continue-as-new waits on the question it carried, until its original deadline.
      const pending = host.board.resumeQuestion(callId) ?? askQuestion(host, plan, callId, question);
      const timeoutMs = pending.expiresAt - pending.requestedAt;
      host.changed();
      try {
        await waitUnlessCancelled(
          () =>
            condition(() => host.board.answerFor(callId) !== undefined, remaining(host, pending), {
              summary: `question (call ${callId}) times out`,
            }),
          () => host.board.settleQuestionIfPending(callId, "cancelled"),
        );
        const answered = host.board.answerFor(callId);
        if (answered) {
          const by = answered.actor ? ` by ${answered.actor}` : "";
          host.board.settleQuestion(callId, `answered${by}${signedWith(answered.keyId)}`);
          return answered.answer;
        }
        host.board.settleQuestion(callId, "timed out");
        const reason = `no answer within ${describeWait(timeoutMs)}`;
        if ((plan?.onTimeout ?? "deny") === "fail")
          host.fail(new AgentError(`question timed out: ${reason}`));
        return { text: `(no answer: ${reason})` };
      } finally {
        host.changed();
      }
    },
  };
}
