import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentRegistry } from "../../../src/activities/agent-registry.js";
import {
  approversFor,
  checkApproverSettings,
  describeApprovers,
  mayDecide,
} from "../../../src/plan/approver-rules.js";
import { defineAgent } from "../../../src/define-agent.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { ApprovalBoard } from "../../../src/workflows/approvals/approval-board.js";
import type { PendingApproval } from "../../../src/contract/session-status.js";

const settings = {
  approvers: [
    { tools: "refund_*", actors: ["alice"], groups: ["finance"] },
    { tools: ["refund_large", "wire_*"], actors: ["cfo"] },
  ],
  groups: { finance: ["bob", "carol"] },
};

describe("approver rules", () => {
  it("every rule whose pattern matches the tool contributes its actors and groups", () => {
    expect(approversFor(settings, "refund_small")).toEqual({
      actors: ["alice"],
      groups: { finance: ["bob", "carol"] },
    });
    expect(approversFor(settings, "refund_large")).toEqual({
      actors: ["alice", "cfo"],
      groups: { finance: ["bob", "carol"] },
    });
    expect(approversFor(settings, "wire_out")).toEqual({ actors: ["cfo"], groups: {} });
  });

  it("a tool no rule names, or a plan without approvers, may be decided by anyone (undefined)", () => {
    expect(approversFor(settings, "search")).toBeUndefined();
    expect(approversFor({}, "refund_small")).toBeUndefined();
    expect(approversFor(undefined, "refund_small")).toBeUndefined();
  });

  it("an actor may decide when named or a member of a group; no actor never may", () => {
    const set = approversFor(settings, "refund_small")!;
    expect(mayDecide(set, "alice")).toBe(true);
    expect(mayDecide(set, "carol")).toBe(true);
    expect(mayDecide(set, "mallory")).toBe(false);
    expect(mayDecide(set, "Alice")).toBe(false);
    expect(mayDecide(set, undefined)).toBe(false);
    expect(mayDecide(set, "")).toBe(false);
    expect(describeApprovers(set)).toBe("alice, group finance (bob, carol)");
  });

  it("checks rules: malformed ones, rules that name nobody, and groups nobody defines are named", () => {
    expect(checkApproverSettings(settings)).toBeUndefined();
    expect(
      checkApproverSettings({ approvers: [{ tools: "x", groups: ["ops"] }] }, { ops: ["dan"] }),
    ).toBeUndefined();
    expect(checkApproverSettings({ approvers: [{ tools: "x", groups: ["ops"] }] })).toBe(
      "permission.approvers[0] names group 'ops', which neither the agent's permission.groups nor the worker's approverGroups defines",
    );
    expect(checkApproverSettings({ approvers: [{ tools: "refund_*" }] })).toBe(
      "permission.approvers[0] names no actors and no groups: nobody could decide refund_*",
    );
    expect(checkApproverSettings({ approvers: [{ tools: [], actors: ["a"] }] })).toContain(
      "permission.approvers[0].tools must be",
    );
    expect(
      checkApproverSettings({ approvers: [{ tools: "x", actors: "alice" as unknown as string[] }] }),
    ).toBe("permission.approvers[0].actors must be a list of names");
    expect(checkApproverSettings({ approvers: [{ tools: "x", groups: ["g"] }], groups: { g: [""] } })).toBe(
      "approver group 'g' must be a list of actor names",
    );
  });

  it("the worker refuses an agent whose approvers name an undefined group, and adds its groups to the plan", () => {
    const tool = defineTool({
      name: "refund_order",
      description: "",
      schema: z.object({}),
      execute: () => "",
    });
    const agent = defineAgent({
      name: "payer",
      model: "m",
      tools: [tool],
      permission: { ask: ["refund_*"], approvers: [{ tools: "refund_*", groups: ["finance"] }] },
    });
    expect(() => new AgentRegistry([agent], {})).toThrow(
      "agent 'payer': permission.approvers[0] names group 'finance', which neither",
    );
    const registry = new AgentRegistry([agent], {}, { finance: ["bob"], other: ["x"] });
    expect(registry.plan("payer").permission?.groups).toEqual({ finance: ["bob"], other: ["x"] });
  });
});

describe("the approval board's approver check", () => {
  const pending: PendingApproval = {
    callId: "c1",
    runId: "run-1",
    tool: "refund_order",
    input: {},
    requestedAt: 0,
    expiresAt: 1,
    approvers: { actors: ["alice"], groups: {} },
  };

  it("refuses anyone else by name, and a decision without an actor", () => {
    const board = new ApprovalBoard();
    board.addApproval(pending);
    expect(board.checkDecision({ callId: "c1", decision: "allow", actor: "alice" })).toBeUndefined();
    expect(board.checkDecision({ callId: "c1", decision: "allow", actor: "eve" })).toBe(
      "actor 'eve' may not decide tool 'refund_order' (call 'c1'); its approvers are: alice",
    );
    expect(board.checkDecision({ callId: "c1", decision: "deny" })).toBe(
      "a decision on tool 'refund_order' (call 'c1') must name its actor; its approvers are: alice",
    );
  });

  it("records decisions with time and channel, and lists ignored ones (at most 10 each)", () => {
    const board = new ApprovalBoard();
    board.addApproval(pending);
    board.decide({ callId: "c1", decision: "allow", actor: "alice", reason: "ok" }, 1_000, "signal");
    expect(board.decisionFor("c1")).toEqual({ decision: "allow", actor: "alice", reason: "ok", at: 1_000 });
    expect(board.recentDecisions()).toEqual([
      {
        callId: "c1",
        tool: "refund_order",
        decision: "allow",
        actor: "alice",
        reason: "ok",
        at: 1_000,
        via: "signal",
        signed: false,
      },
    ]);
    for (let index = 0; index < 12; index++)
      board.rejectDecision({ callId: `x${index}`, decision: "deny", actor: "eve" }, "no", index);
    expect(board.rejectedDecisions()).toHaveLength(10);
    expect(board.rejectedDecisions()[0]).toEqual({
      callId: "x2",
      decision: "deny",
      actor: "eve",
      at: 2,
      why: "no",
    });
  });

  it("carries its listed decisions into the next execution (and ignores a carried value that is not a list)", () => {
    const board = new ApprovalBoard();
    expect(board.carry()).toBeUndefined();
    board.addApproval(pending);
    board.decide({ callId: "c1", decision: "deny", actor: "alice" }, 5, "update");
    board.rejectDecision({ callId: "c9", decision: "allow", actor: "eve" }, "unknown call", 6);
    const next = new ApprovalBoard(board.carry());
    expect(next.recentDecisions()).toEqual(board.recentDecisions());
    expect(next.rejectedDecisions()).toEqual(board.rejectedDecisions());
    const garbage = new ApprovalBoard({ recent: "x", rejected: null } as never);
    expect(garbage.recentDecisions()).toEqual([]);
    expect(garbage.rejectedDecisions()).toEqual([]);
    const mixed = new ApprovalBoard({
      recent: [
        null,
        { callId: "c1" },
        { callId: "c2", decision: "allow", at: "soon" },
        ...board.recentDecisions(),
      ],
      rejected: [],
    } as never);
    expect(mixed.recentDecisions()).toEqual(board.recentDecisions());
  });
});
