import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyTool, ToolContext, ToolOutput } from "../../../src/kernel/vocabulary/tools.js";
import { demoAgent } from "../../../src/demo/demo-agent.js";
import { toAgentPlan } from "../../../src/define-agent.js";

const ctx = { sessionId: "s", signal: new AbortController().signal, emit: () => undefined } as ToolContext;

/** Runs a tool the way the kernel does: input validated by its schema first. */
async function call(tool: AnyTool, input: unknown): Promise<{ content: string; isError: boolean }> {
  const output: ToolOutput = await tool.execute(tool.schema.parse(input), ctx);
  return typeof output === "string"
    ? { content: output, isError: false }
    : { content: output.content, isError: output.isError === true };
}

describe("the demo agent's tools", () => {
  let base: string;
  let sandbox: string;
  let tools: Map<string, AnyTool>;
  const tool = (name: string) => tools.get(name)!;

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), "demo-tools-"));
    sandbox = path.join(base, "sandbox");
    mkdirSync(path.join(sandbox, "sub"), { recursive: true });
    writeFileSync(path.join(sandbox, "data.csv"), "team,points\nred,3\nblue,4\nred,5\n");
    writeFileSync(path.join(sandbox, "big.txt"), "x".repeat(70 * 1024));
    writeFileSync(path.join(sandbox, "blob.bin"), Buffer.from([1, 0, 2]));
    writeFileSync(path.join(base, "outside.txt"), "secret");
    tools = new Map((demoAgent(sandbox, "m").tools ?? []).map((t) => [t.name, t]));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("declares list_files, read_file and column_stats idempotent and leaves calculate and save_report at-most-once", () => {
    const plan = toAgentPlan(demoAgent(sandbox, "m"));
    expect(Object.fromEntries(plan.tools.map((t) => [t.name, t.retry]))).toEqual({
      list_files: "idempotent",
      read_file: "idempotent",
      column_stats: "idempotent",
      calculate: "at-most-once",
      save_report: "at-most-once",
    });
    // Writing the report is the one side effect: a person approves every call.
    expect(plan.permission?.ask).toEqual(["save_report"]);
  });

  it("save_report writes inside the sandbox and refuses a path outside it", async () => {
    // A sandbox of its own: the listing tests below see the shared one unchanged.
    const own = mkdtempSync(path.join(base, "own-"));
    const save = (demoAgent(own, "m").tools ?? []).find((t) => t.name === "save_report")!;
    expect(await call(save, { path: "out/r.md", content: "# R\n" })).toEqual({
      content: "saved out/r.md (4 bytes)",
      isError: false,
    });
    expect(readFileSync(path.join(own, "out", "r.md"), "utf8")).toBe("# R\n");
    const outside = await call(save, { path: "../escape.md", content: "x" });
    expect(outside.isError).toBe(true);
    expect(existsSync(path.join(base, "escape.md"))).toBe(false);
  });

  it("list_files lists folders with a slash and files with their size", async () => {
    expect(await call(tool("list_files"), {})).toEqual({
      content: "big.txt (71680 bytes)\nblob.bin (3 bytes)\ndata.csv (31 bytes)\nsub/",
      isError: false,
    });
    expect(await call(tool("list_files"), { path: "sub" })).toEqual({
      content: "(empty folder)",
      isError: false,
    });
  });

  it("list_files and read_file refuse paths outside the sandbox with an error result", async () => {
    const listed = await call(tool("list_files"), { path: ".." });
    expect(listed).toEqual({
      content: "error: '..' is outside the sandbox folder; only files inside it can be used",
      isError: true,
    });
    const read = await call(tool("read_file"), { path: "../outside.txt" });
    expect(read.isError).toBe(true);
    expect(read.content).toContain("outside the sandbox");
    expect((await call(tool("read_file"), { path: path.join(base, "outside.txt") })).content).toContain(
      "absolute path",
    );
  });

  it("read_file returns text, cuts large files and refuses folders, binaries and missing files", async () => {
    expect(await call(tool("read_file"), { path: "data.csv" })).toEqual({
      content: "team,points\nred,3\nblue,4\nred,5\n",
      isError: false,
    });
    const big = await call(tool("read_file"), { path: "big.txt" });
    expect(big.content.endsWith("… (truncated: showing 65536 of 71680 bytes)")).toBe(true);
    expect(await call(tool("read_file"), { path: "sub" })).toEqual({
      content: "error: 'sub' is a folder; use list_files",
      isError: true,
    });
    expect((await call(tool("read_file"), { path: "blob.bin" })).content).toBe(
      "error: 'blob.bin' is a binary file, not text",
    );
    expect((await call(tool("read_file"), { path: "nope.txt" })).content).toBe(
      "error: no file 'nope.txt' in the sandbox",
    );
  });

  it("column_stats answers JSON, grouped when asked, and explains a bad column", async () => {
    const stats = JSON.parse(
      (await call(tool("column_stats"), { path: "data.csv", column: "points", groupBy: "team" })).content,
    );
    expect(stats).toMatchObject({
      file: "data.csv",
      column: "points",
      count: 3,
      sum: 12,
      mean: 4,
      min: 3,
      max: 5,
    });
    expect(stats.groups).toEqual([
      { key: "red", count: 2, sum: 8, mean: 4 },
      { key: "blue", count: 1, sum: 4, mean: 4 },
    ]);
    const bad = await call(tool("column_stats"), { path: "data.csv", column: "score" });
    expect(bad).toEqual({
      content: "error: no column 'score'; the columns are: team, points",
      isError: true,
    });
  });

  it("calculate evaluates arithmetic and reports a bad expression as an error result", async () => {
    expect(await call(tool("calculate"), { expression: "round(12 / 7, 3)" })).toEqual({
      content: "1.714",
      isError: false,
    });
    expect(await call(tool("calculate"), { expression: "0.1 + 0.2" })).toEqual({
      content: "0.3",
      isError: false,
    });
    expect(await call(tool("calculate"), { expression: "require('fs')" })).toMatchObject({ isError: true });
  });
});
