import { describe, expect, it } from "vitest";
import { policy, strictPolicy } from "../../../src/kernel/permission/policy.js";
import { call } from "./tool-call-context.js";

const ctx = { sessionId: "s1" };

describe("policy", () => {
  it("allows everything by default", () => {
    expect(policy().check(call("anything"), ctx)).toBe("allow");
  });

  it("honours the default option", () => {
    expect(policy({ default: "ask" }).check(call("x"), ctx)).toBe("ask");
  });

  it("legacy name lists return bare decisions and match globs", () => {
    const p = policy({ allow: ["read_*"], ask: ["bash"], deny: ["rm_*"], default: "deny" });
    expect(p.check(call("read_file"), ctx)).toBe("allow");
    expect(p.check(call("bash"), ctx)).toBe("ask");
    expect(p.check(call("rm_tree"), ctx)).toBe("deny");
    expect(p.check(call("other"), ctx)).toBe("deny");
  });

  it("precedence is deny > ask > allow > default whatever the listing order", () => {
    const p = policy({ allow: ["*"], ask: ["b*", "bash"], deny: ["bash"] });
    expect(p.check(call("bash"), ctx)).toBe("deny");
    expect(p.check(call("bun"), ctx)).toBe("ask");
    expect(p.check(call("ls"), ctx)).toBe("allow");
  });

  it("precedence also holds across content rules", () => {
    const p = policy({
      rules: [
        { tool: "bash", effect: "allow" },
        { tool: "bash", when: { command: { startsWith: "git" } }, effect: "ask" },
        { tool: "bash", when: { command: { contains: "--force" } }, effect: "deny" },
      ],
    });
    expect(p.check(call("bash", { command: "git push --force" }), ctx)).toEqual({
      decision: "deny",
      ruleId: "rule-2",
    });
    expect(p.check(call("bash", { command: "git push" }), ctx)).toEqual({
      decision: "ask",
      ruleId: "rule-1",
    });
    expect(p.check(call("bash", { command: "ls" }), ctx)).toEqual({ decision: "allow", ruleId: "rule-0" });
  });

  it("content rules get automatic ids, keep explicit ones, and report the description as reason", () => {
    const p = policy({
      rules: [
        {
          id: "no-secrets",
          description: "secrets are off limits",
          when: { path: { glob: "**/.env" } },
          effect: "deny",
        },
        { tool: "write_*", effect: "ask" },
      ],
    });
    expect(p.check(call("read_file", { path: "app/.env" }), ctx)).toEqual({
      decision: "deny",
      ruleId: "no-secrets",
      reason: "secrets are off limits",
    });
    expect(p.check(call("write_file", { path: "a.txt" }), ctx)).toEqual({
      decision: "ask",
      ruleId: "rule-1",
    });
  });

  it("a rule's tool may be a list of globs, any of which may match", () => {
    const p = policy({ rules: [{ tool: ["edit_*", "write_file"], effect: "deny" }] });
    expect(p.check(call("write_file"), ctx)).toEqual({ decision: "deny", ruleId: "rule-0" });
    expect(p.check(call("edit_x"), ctx)).toEqual({ decision: "deny", ruleId: "rule-0" });
    expect(p.check(call("read_file"), ctx)).toBe("allow");
  });

  it("a rule matches only when tool, when and where all hold", () => {
    const p = policy({
      rules: [
        {
          tool: "bash",
          when: { command: { startsWith: "rm" } },
          where: (c, context) => context.sessionId === "s1" && c.id === "call-bash",
          effect: "deny",
        },
      ],
    });
    expect(p.check(call("bash", { command: "rm x" }), ctx)).toEqual({ decision: "deny", ruleId: "rule-0" });
    expect(p.check(call("bash", { command: "rm x" }), { sessionId: "s2" })).toBe("allow");
    expect(p.check(call("sh", { command: "rm x" }), ctx)).toBe("allow");
    expect(p.check(call("bash", { command: "ls" }), ctx)).toBe("allow");
  });

  it("a rule whose field is missing does not match", () => {
    const p = policy({ rules: [{ when: { command: { not: { startsWith: "ls" } } }, effect: "deny" }] });
    expect(p.check(call("bash", {}), ctx)).toBe("allow");
    expect(p.check(call("bash", { command: "rm" }), ctx)).toEqual({ decision: "deny", ruleId: "rule-0" });
  });

  it("name lists win over content rules of the same effect", () => {
    const p = policy({ deny: ["bash"], rules: [{ id: "r", tool: "bash", effect: "deny" }] });
    expect(p.check(call("bash"), ctx)).toBe("deny");
  });
});

describe("strictPolicy", () => {
  it("denies whatever no rule matches", () => {
    const p = strictPolicy({ allow: ["read_*"] });
    expect(p.check(call("read_file"), ctx)).toBe("allow");
    expect(p.check(call("write_file"), ctx)).toBe("deny");
  });
});
