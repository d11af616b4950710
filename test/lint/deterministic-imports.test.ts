import { fileURLToPath } from "node:url";
import { ESLint, type Linter } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/deterministic/${name}`, import.meta.url));

/** The rule ids and lines of a file's errors. */
function errorsOf(messages: Linter.LintMessage[]) {
  return messages.filter((message) => message.severity === 2).map(({ ruleId, line }) => ({ ruleId, line }));
}

describe("the determinism lint on workflow code (fixtures configured like src/workflows)", () => {
  // `ignore: false`: `eslint .` skips the fixtures, which break the rules on purpose.
  const eslint = new ESLint({ cwd: root, ignore: false });
  let forbidden: Linter.LintMessage[];
  let allowed: Linter.LintMessage[];
  beforeAll(async () => {
    const [forbiddenResult, allowedResult] = await eslint.lintFiles([
      fixture("forbidden-imports.ts"),
      fixture("allowed-imports.ts"),
    ]);
    forbidden = forbiddenResult!.messages;
    allowed = allowedResult!.messages;
  }, 120_000);

  it("reports every relative value import of a Node-bound module: static, re-exported, inline-type-only, dynamic", () => {
    const relative = errorsOf(forbidden).filter(
      (error) => error.ruleId === "lite-agent/deterministic-imports",
    );
    // src/stream (ioredis), src/node-ports.ts (node:crypto), src/checkpoint (node:fs, loaded although only a
    // type is named), src/worker.ts, src/storage, src/runtime.
    expect(relative.map((error) => error.line)).toEqual([7, 8, 9, 11, 12, 15]);
    expect(forbidden.find((message) => message.line === 7)?.message).toMatch(
      /'src\/stream\/redis-delta-sink\.js' is outside the deterministic folders .*`import type`/,
    );
  });

  it("reports a Node built-in imported directly", () => {
    expect(errorsOf(forbidden)).toContainEqual({ ruleId: "no-restricted-imports", line: 6 });
  });

  it("reports nothing for values from the deterministic folders and `import type` of Node-bound ones", () => {
    expect(allowed.map(({ ruleId, line, message }) => `${ruleId}@${line}: ${message}`)).toEqual([]);
  });

  it("reports state kept at module level (shared by a worker thread's sessions), not constants or local state", async () => {
    const [result] = await eslint.lintFiles([fixture("module-state.ts")]);
    const errors = errorsOf(result!.messages);
    expect(errors).toEqual([6, 7, 8, 9, 10].map((line) => ({ ruleId: "no-restricted-syntax", line })));
    expect(result!.messages[0]?.message).toMatch(/shared by every session of a worker thread/);
  });

  it("is skipped by `eslint .`, so the fixtures' violations do not fail the project's lint", async () => {
    const project = new ESLint({ cwd: root });
    expect(await project.isPathIgnored(fixture("forbidden-imports.ts"))).toBe(true);
    expect(await project.isPathIgnored(fixture("module-state.ts"))).toBe(true);
  });
});
