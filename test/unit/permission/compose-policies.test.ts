import { describe, expect, it } from "vitest";
import { composePolicies } from "../../../src/kernel/permission/compose-policies.js";
import { policy } from "../../../src/kernel/permission/policy.js";
import type { PermissionPolicy } from "../../../src/kernel/permission/types.js";
import { call } from "./tool-call-context.js";

const ctx = { sessionId: "s1" };
const fixed = (answer: ReturnType<PermissionPolicy["check"]>): PermissionPolicy => ({ check: () => answer });

describe("composePolicies", () => {
  it("deny wins over ask and allow, whichever layer says it", async () => {
    const composed = composePolicies(
      fixed("allow"),
      fixed("ask"),
      fixed({ decision: "deny", ruleId: "managed-1", reason: "no" }),
    );
    expect(await composed.check(call("x"), ctx)).toEqual({
      decision: "deny",
      ruleId: "managed-1",
      reason: "no",
    });
  });

  it("ask wins over allow and carries the winning verdict", async () => {
    const composed = composePolicies(
      fixed("allow"),
      fixed({ decision: "ask", ruleId: "user-3" }),
      fixed("allow"),
    );
    expect(await composed.check(call("x"), ctx)).toEqual({ decision: "ask", ruleId: "user-3" });
  });

  it("on a tie the earlier layer's verdict is kept", async () => {
    const composed = composePolicies(
      fixed({ decision: "allow", ruleId: "first" }),
      fixed({ decision: "allow", ruleId: "second" }),
    );
    expect(await composed.check(call("x"), ctx)).toEqual({ decision: "allow", ruleId: "first" });
  });

  it("stops at the first deny", async () => {
    let asked = false;
    const later: PermissionPolicy = {
      check: () => {
        asked = true;
        return "allow";
      },
    };
    expect(await composePolicies(fixed("deny"), later).check(call("x"), ctx)).toEqual({ decision: "deny" });
    expect(asked).toBe(false);
  });

  it("merges real policies: a managed deny beats a project allow", async () => {
    const managed = policy({
      rules: [{ id: "managed", tool: "bash", when: { command: { contains: "sudo" } }, effect: "deny" }],
    });
    const project = policy({ allow: ["bash"] });
    const composed = composePolicies(project, managed);
    expect(await composed.check(call("bash", { command: "sudo ls" }), ctx)).toEqual({
      decision: "deny",
      ruleId: "managed",
    });
    expect(await composed.check(call("bash", { command: "ls" }), ctx)).toEqual({ decision: "allow" });
  });

  it("awaits async layers and allows when there are none", async () => {
    const asyncAsk: PermissionPolicy = { check: async () => "ask" as const };
    expect(await composePolicies(fixed("allow"), asyncAsk).check(call("x"), ctx)).toEqual({
      decision: "ask",
    });
    expect(await composePolicies().check(call("x"), ctx)).toEqual({ decision: "allow" });
  });

  it("propagates a layer's throw (the gate then fails closed)", async () => {
    const broken: PermissionPolicy = {
      check: () => {
        throw new Error("bad rules");
      },
    };
    await expect(composePolicies(fixed("allow"), broken).check(call("x"), ctx)).rejects.toThrow("bad rules");
  });
});
