import { describe, expect, it } from "vitest";
import type { ToolExec } from "../../../src/kernel/middleware/middleware.js";
import { permission } from "../../../src/kernel/permission/gate.js";
import { policy } from "../../../src/kernel/permission/policy.js";
import type {
  ApprovalAnswer,
  ApprovalHandler,
  PermissionPolicy,
} from "../../../src/kernel/permission/types.js";
import type { ToolCall, ToolResult } from "../../../src/kernel/vocabulary/tools.js";
import { CLOCK_NOW, call, deferred, flush, toolCallContext } from "./tool-call-context.js";

/** A tool that records whether it ran. */
function tool(target: ToolCall) {
  const runs: string[] = [];
  const next: ToolExec = async () => {
    runs.push(target.id);
    return { id: target.id, name: target.name, content: "ran" };
  };
  return { runs, next };
}

/** Runs one call through the gate. */
async function gateCall(gate: ReturnType<typeof permission>, target: ToolCall, signal?: AbortSignal) {
  const { ctx, events, recorded } = toolCallContext(target, signal);
  const { runs, next } = tool(target);
  const result: ToolResult = await gate.wrapToolCall!(ctx, next);
  return { result, events, recorded, ran: runs.length > 0 };
}

const approver = (answer: ApprovalAnswer): ApprovalHandler => ({ request: () => answer });

describe("permission gate: policy decisions", () => {
  it("allow: emits the decision and runs the tool", async () => {
    const { result, events, ran } = await gateCall(permission(policy()), call("read"));
    expect(ran).toBe(true);
    expect(result.content).toBe("ran");
    expect(events).toEqual([
      { type: "permission_decision", call: call("read"), decision: "allow", by: "policy" },
    ]);
  });

  it("deny: returns a blocked error with the reason and never runs the tool", async () => {
    const p = policy({ rules: [{ id: "no-rm", description: "destructive", tool: "rm", effect: "deny" }] });
    const { result, events, ran } = await gateCall(permission(p), call("rm"));
    expect(ran).toBe(false);
    expect(result).toEqual({
      id: "call-rm",
      name: "rm",
      content: "Error: blocked by policy: destructive",
      isError: true,
    });
    expect(events).toEqual([
      {
        type: "permission_decision",
        call: call("rm"),
        decision: "deny",
        ruleId: "no-rm",
        reason: "destructive",
        by: "policy",
      },
    ]);
  });

  it("deny without a reason: plain blocked error", async () => {
    const { result } = await gateCall(permission(policy({ deny: ["rm"] })), call("rm"));
    expect(result.content).toBe("Error: blocked by policy");
  });

  it("a policy that throws denies (fails closed) with a policy error", async () => {
    const broken: PermissionPolicy = {
      check: () => {
        throw new Error("bad config");
      },
    };
    const { result, events, ran } = await gateCall(permission(broken), call("x"));
    expect(ran).toBe(false);
    expect(result.content).toBe("Error: blocked by policy: policy error: bad config");
    expect(events[0]).toMatchObject({ decision: "deny", by: "policy", reason: "policy error: bad config" });
  });

  it("a policy that rejects or answers nonsense also denies", async () => {
    const rejecting: PermissionPolicy = { check: () => Promise.reject(new Error("down")) };
    expect((await gateCall(permission(rejecting), call("x"))).result.content).toBe(
      "Error: blocked by policy: policy error: down",
    );
    const nonsense = { check: () => "maybe" } as unknown as PermissionPolicy;
    const { result, ran } = await gateCall(permission(nonsense), call("x"));
    expect(ran).toBe(false);
    expect(result.content).toMatch(/^Error: blocked by policy: policy error: invalid decision/);
  });

  it("awaits an async policy", async () => {
    const { ran } = await gateCall(permission({ check: async () => "allow" as const }), call("x"));
    expect(ran).toBe(true);
  });
});

describe("permission gate: approvals", () => {
  const ask = policy({ ask: ["bash"] });

  it("ask → allow: request, resolution and decision events, then the tool runs", async () => {
    const { result, events, ran } = await gateCall(permission(ask, approver("allow")), call("bash"));
    expect(ran).toBe(true);
    expect(result.content).toBe("ran");
    expect(events).toEqual([
      { type: "approval_request", call: call("bash") },
      // A person's decision carries its time: the approver's own, else the run's clock.
      { type: "approval_resolved", id: "call-bash", decision: "allow", by: "user", at: CLOCK_NOW },
      { type: "permission_decision", call: call("bash"), decision: "allow", by: "user", at: CLOCK_NOW },
    ]);
  });

  it("ask → deny: denied by user and the tool never runs", async () => {
    const { result, events, ran } = await gateCall(permission(ask, approver("deny")), call("bash"));
    expect(ran).toBe(false);
    expect(result).toEqual({
      id: "call-bash",
      name: "bash",
      content: "Error: denied by user",
      isError: true,
    });
    expect(events.map((e) => e.type)).toEqual([
      "approval_request",
      "approval_resolved",
      "permission_decision",
    ]);
    expect(events[2]).toMatchObject({ decision: "deny", by: "user" });
  });

  it("an answer object carries actor and reason into the events and the result", async () => {
    const handler = approver({ decision: "deny", actor: "alice", reason: "not on prod" });
    const { result, events } = await gateCall(permission(ask, handler), call("bash"));
    expect(result.content).toBe("Error: denied by user: not on prod");
    expect(events[1]).toEqual({
      type: "approval_resolved",
      id: "call-bash",
      decision: "deny",
      by: "user",
      actor: "alice",
      reason: "not on prod",
      at: CLOCK_NOW,
    });
    expect(events[2]).toMatchObject({ decision: "deny", by: "user", actor: "alice", reason: "not on prod" });
  });

  it("an approver's own decision time wins over the run's clock", async () => {
    const { events } = await gateCall(permission(ask, approver({ decision: "allow", at: 42 })), call("bash"));
    expect(events[1]).toMatchObject({ type: "approval_resolved", at: 42 });
    expect(events[2]).toMatchObject({ type: "permission_decision", at: 42 });
  });

  it("the decision after an ask keeps the rule's provenance", async () => {
    const p = policy({
      rules: [{ id: "confirm-push", description: "pushes need a human", tool: "bash", effect: "ask" }],
    });
    let seen: unknown;
    const handler: ApprovalHandler = {
      request: (c, context) => {
        seen = { c, context };
        return { decision: "allow", actor: "bob" };
      },
    };
    const { events } = await gateCall(permission(p, handler), call("bash", { command: "git push" }));
    expect(seen).toEqual({
      c: call("bash", { command: "git push" }),
      context: { sessionId: "s1", reason: "pushes need a human" },
    });
    expect(events[2]).toEqual({
      type: "permission_decision",
      call: call("bash", { command: "git push" }),
      decision: "allow",
      by: "user",
      ruleId: "confirm-push",
      reason: "pushes need a human",
      actor: "bob",
      at: CLOCK_NOW,
    });
  });

  it("no approver: denied automatically", async () => {
    const { result, events, ran } = await gateCall(permission(ask), call("bash"));
    expect(ran).toBe(false);
    expect(result.content).toBe("Error: denied by user");
    expect(events[1]).toEqual({ type: "approval_resolved", id: "call-bash", decision: "deny", by: "auto" });
    expect(events[2]).toMatchObject({ decision: "deny", by: "auto" });
  });

  it("an approver that throws denies (fails closed) with the error as reason", async () => {
    const throwing: ApprovalHandler = {
      request: () => {
        throw new Error("ui crashed");
      },
    };
    const { result, events, ran } = await gateCall(permission(ask, throwing), call("bash"));
    expect(ran).toBe(false);
    expect(result.content).toBe("Error: approval failed: approval error: ui crashed");
    expect(events[2]).toMatchObject({ decision: "deny", by: "auto", reason: "approval error: ui crashed" });
  });

  it("an unrecognised answer counts as a denial", async () => {
    const { ran } = await gateCall(permission(ask, approver("yes" as ApprovalAnswer)), call("bash"));
    expect(ran).toBe(false);
  });

  it("stops waiting and denies when the run aborts during the approval", async () => {
    const pending = deferred<ApprovalAnswer>();
    const controller = new AbortController();
    const running = gateCall(
      permission(ask, { request: () => pending.promise }),
      call("bash"),
      controller.signal,
    );
    await flush();
    controller.abort();
    const { result, events, ran } = await running;
    expect(ran).toBe(false);
    expect(result.content).toBe("Error: approval failed: aborted while waiting for approval");
    expect(events[1]).toMatchObject({ type: "approval_resolved", decision: "deny", by: "auto" });
    pending.resolve("allow");
  });

  it("does not ask at all when the run is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    let asked = false;
    const handler: ApprovalHandler = {
      request: () => {
        asked = true;
        return "allow";
      },
    };
    const { ran } = await gateCall(permission(ask, handler), call("bash"), controller.signal);
    expect(asked).toBe(false);
    expect(ran).toBe(false);
  });
});

describe("permission gate: concurrency", () => {
  const ask = policy({ ask: ["*"] });

  /** An approver whose answers the test gives by hand, recording which calls it was asked about. */
  function manualApprover() {
    const asked: string[] = [];
    const answers = new Map<string, ReturnType<typeof deferred<ApprovalAnswer>>>();
    const handler: ApprovalHandler = {
      request: (c) => {
        asked.push(c.id);
        const answer = deferred<ApprovalAnswer>();
        answers.set(c.id, answer);
        return answer.promise;
      },
    };
    return { asked, answers, handler };
  }

  it("serialises approvals: the second request starts only after the first resolves", async () => {
    const { asked, answers, handler } = manualApprover();
    const gate = permission(ask, handler);
    const first = gateCall(gate, call("a"));
    const second = gateCall(gate, call("b"));
    await flush();
    expect(asked).toEqual(["call-a"]);
    answers.get("call-a")!.resolve("allow");
    await first;
    await flush();
    expect(asked).toEqual(["call-a", "call-b"]);
    answers.get("call-b")!.resolve("deny");
    expect((await second).ran).toBe(false);
  });

  it("a failing approval still lets the next one through", async () => {
    const { asked, answers, handler } = manualApprover();
    const gate = permission(ask, handler);
    const first = gateCall(gate, call("a"));
    const second = gateCall(gate, call("b"));
    await flush();
    answers.get("call-a")!.reject(new Error("boom"));
    expect((await first).ran).toBe(false);
    await flush();
    expect(asked).toEqual(["call-a", "call-b"]);
    answers.get("call-b")!.resolve("allow");
    expect((await second).ran).toBe(true);
  });

  it("an aborted waiter in the queue gives up without being asked and without blocking later calls", async () => {
    const { asked, answers, handler } = manualApprover();
    const gate = permission(ask, handler);
    const controller = new AbortController();
    const first = gateCall(gate, call("a"));
    const queued = gateCall(gate, call("b"), controller.signal);
    const third = gateCall(gate, call("c"));
    await flush();
    controller.abort();
    expect((await queued).ran).toBe(false);
    answers.get("call-a")!.resolve("allow");
    await first;
    await flush();
    expect(asked).toEqual(["call-a", "call-c"]);
    answers.get("call-c")!.resolve("allow");
    expect((await third).ran).toBe(true);
  });

  it("serializeApprovals:false lets several approvals be pending at once", async () => {
    const { asked, answers, handler } = manualApprover();
    const gate = permission(ask, handler, { serializeApprovals: false });
    const first = gateCall(gate, call("a"));
    const second = gateCall(gate, call("b"));
    await flush();
    expect(asked).toEqual(["call-a", "call-b"]);
    answers.get("call-b")!.resolve("allow");
    expect((await second).ran).toBe(true);
    answers.get("call-a")!.resolve("deny");
    expect((await first).ran).toBe(false);
  });
});

describe("permission gate: modes and reporting", () => {
  it("dry-run reports the would-be decision as simulated and always runs the tool", async () => {
    const gate = permission(policy({ deny: ["rm"], ask: ["bash"] }), undefined, { mode: "dry-run" });
    const denied = await gateCall(gate, call("rm"));
    expect(denied.ran).toBe(true);
    expect(denied.events).toEqual([
      { type: "permission_decision", call: call("rm"), decision: "deny", by: "policy", simulated: true },
    ]);
    const asked = await gateCall(gate, call("bash"));
    expect(asked.ran).toBe(true);
    expect(asked.events.map((e) => e.type)).toEqual(["permission_decision"]);
    expect(asked.events[0]).toMatchObject({ decision: "ask", simulated: true });
  });

  it("dry-run still runs the tool when the policy throws", async () => {
    const broken: PermissionPolicy = {
      check: () => {
        throw new Error("x");
      },
    };
    const { ran, events } = await gateCall(permission(broken, undefined, { mode: "dry-run" }), call("t"));
    expect(ran).toBe(true);
    expect(events[0]).toMatchObject({ decision: "deny", reason: "policy error: x", simulated: true });
  });

  it("audit:true persists every decision with the turn", async () => {
    const gate = permission(policy({ ask: ["bash"] }), approver("allow"), { audit: true });
    const { recorded } = await gateCall(gate, call("bash"));
    expect(recorded).toEqual([
      {
        type: "permission_decision",
        call: call("bash"),
        decision: "allow",
        by: "user",
        at: CLOCK_NOW,
        turn: 3,
      },
    ]);
  });

  it("without audit nothing is persisted", async () => {
    const { recorded } = await gateCall(permission(policy()), call("x"));
    expect(recorded).toEqual([]);
  });

  it("redacts the call input in every emitted and persisted event, but not for the policy or approver", async () => {
    const secretCall = call("bash", { command: "curl -H 'Authorization: Bearer s3cr3tT0ken' https://x" });
    let policySaw: unknown;
    let approverSaw: unknown;
    const p: PermissionPolicy = {
      check: (c) => {
        policySaw = c.input;
        return "ask";
      },
    };
    const handler: ApprovalHandler = {
      request: (c) => {
        approverSaw = c.input;
        return "allow";
      },
    };
    const { events, recorded, ran } = await gateCall(permission(p, handler, { audit: true }), secretCall);
    expect(ran).toBe(true);
    expect(policySaw).toEqual(secretCall.input);
    expect(approverSaw).toEqual(secretCall.input);
    const emitted = JSON.stringify([events, recorded]);
    expect(emitted).not.toContain("s3cr3tT0ken");
    expect(emitted).toContain("Bearer [redacted]");
    expect(events.filter((e) => "call" in e)).toHaveLength(2);
  });

  it("uses a custom redactor, and hides the input when the redactor throws", async () => {
    const custom = await gateCall(
      permission(policy(), undefined, { redact: () => "***" }),
      call("x", { a: 1 }),
    );
    expect(custom.events[0]).toMatchObject({ call: { input: "***" } });
    const failing = () => {
      throw new Error("nope");
    };
    const hidden = await gateCall(permission(policy(), undefined, { redact: failing }), call("x", { a: 1 }));
    expect(hidden.ran).toBe(true);
    expect(hidden.events[0]).toMatchObject({ call: { input: "[redacted]" } });
  });

  it("is named permission", () => {
    expect(permission(policy()).name).toBe("permission");
  });
});
