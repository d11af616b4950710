import { describe, expect, it } from "vitest";
import { ApprovalBoard } from "../../../src/workflows/approvals/approval-board.js";
import type { PendingApproval, PendingQuestion } from "../../../src/contract/session-status.js";
import type { CarriedDecisions } from "../../../src/contract/carried-state.js";

const approval: PendingApproval = {
  callId: "p1",
  runId: "r1",
  tool: "publish",
  input: { label: "p1" },
  requestedAt: 1_000,
  expiresAt: 61_000,
  approvers: { actors: ["alice"], groups: {} },
};
const question: PendingQuestion = {
  callId: "u1",
  runId: "r1",
  question: "which colour?",
  requestedAt: 1_000,
  expiresAt: 61_000,
};

/** The board's carry, through JSON as continue-as-new passes it. */
const carried = (board: ApprovalBoard) => JSON.parse(JSON.stringify(board.carry())) as CarriedDecisions;

describe("the approval board across continue-as-new", () => {
  it("carries its pending approvals and questions as they are, and lists them in the next execution", () => {
    const board = new ApprovalBoard();
    board.addApproval(approval);
    board.addQuestion(question);
    const next = new ApprovalBoard(carried(board));
    expect(next.pendingApprovals()).toEqual([approval]);
    expect(next.pendingQuestions()).toEqual([question]);
    expect(next.awaitsPerson("p1")).toBe(true);
    expect(next.awaitsPerson("u1")).toBe(true);
    // A decision for a carried approval is checked against its carried approvers.
    expect(next.checkDecision({ callId: "p1", decision: "allow", actor: "bob" })).toMatch(/may not decide/);
    expect(next.checkDecision({ callId: "p1", decision: "allow", actor: "alice" })).toBeUndefined();
  });

  it("hands a carried wait to the resumed run once; a new wait for the same call is not carried", () => {
    const board = new ApprovalBoard();
    board.addApproval(approval);
    board.addQuestion(question);
    const next = new ApprovalBoard(carried(board));
    expect(next.resumeApproval("p1")).toEqual(approval);
    expect(next.resumeApproval("p1")).toBeUndefined();
    expect(next.resumeQuestion("u1")).toEqual(question);
    expect(next.resumeQuestion("u1")).toBeUndefined();
    expect(new ApprovalBoard().resumeApproval("p1")).toBeUndefined();
  });

  it("does not await a person once a decision or an answer came", () => {
    const next = new ApprovalBoard({ recent: [], rejected: [], pendingApprovals: [approval] });
    next.decide({ callId: "p1", decision: "deny", actor: "alice" }, 2_000, "update");
    expect(next.awaitsPerson("p1")).toBe(false);
    expect(next.awaitsPerson("unknown")).toBe(false);
  });

  it("keeps only well-formed carried waits (the previous execution's input is checked, never trusted)", () => {
    const next = new ApprovalBoard({
      recent: [],
      rejected: [],
      pendingApprovals: [
        approval,
        { callId: 7 },
        null,
        { ...approval, callId: "p2", expiresAt: "soon" },
      ] as never,
      pendingQuestions: "none" as never,
    });
    expect(next.pendingApprovals().map((pending) => pending.callId)).toEqual(["p1"]);
    expect(next.pendingQuestions()).toEqual([]);
  });

  it("carries nothing when nothing was decided and nothing waits", () => {
    expect(new ApprovalBoard().carry()).toBeUndefined();
  });
});
