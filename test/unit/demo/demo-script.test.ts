import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent.js";
import { localAgentConfig } from "../../../src/local-agent-config.js";
import { demoAgent } from "../../../src/demo/demo-agent.js";
import { demoScriptTurn, scriptedDemoModel, SCRIPTED_MODEL_ID } from "../../../src/demo/demo-script.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import {
  assistantMessage,
  textBlock,
  toolCallBlock,
  toolResultBlock,
  type Message,
} from "../../../src/kernel/vocabulary/messages.js";
import type { FakeTurn } from "../../../src/providers/fake-provider.js";
import { collect } from "../../support/collect.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sandboxWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "demo-script-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

/** Runs the scripted demo in process; the person asked about the report write answers `answer`. */
async function runScripted(sandbox: string, answer: "allow" | "deny" = "allow") {
  const model = scriptedDemoModel();
  const approval = { request: () => answer };
  const config = localAgentConfig(demoAgent(sandbox, SCRIPTED_MODEL_ID), model, { approval });
  const run = await collect(createAgent(config).run("analyse"));
  const calls = run.events.flatMap((event: AgentEvent) =>
    event.type === "tool_call_start" ? [event.call] : [],
  );
  return { ...run, model, calls };
}

describe("the scripted demo model", () => {
  it("calls the real tools in order and answers with figures computed from their results (dates are not grouped by)", async () => {
    const csv = "date,shop,items,takings\n2024-05-06,A,4,40\n2024-05-06,B,6,90\n2024-05-07,A,10,110\n";
    const sandbox = sandboxWith({
      "about.md": "Two shops.\nMore text.",
      "shop.csv": csv,
      "zzz.csv": "x\n1\n",
    });
    const { result, calls } = await runScripted(sandbox);
    expect(calls.map((call) => call.name)).toEqual([
      "list_files",
      "read_file",
      "read_file",
      "column_stats",
      "column_stats",
      "calculate",
      "calculate",
      "save_report",
    ]);
    expect(calls[3]?.input).toEqual({ path: "shop.csv", column: "items" });
    expect(calls[4]?.input).toEqual({ path: "shop.csv", column: "takings", groupBy: "shop" });
    expect(result.stopReason).toBe("stop");
    expect(result.text).toContain("- shop.csv has 3 rows with the columns date, shop, items, takings.");
    expect(result.text).toContain("- Total items: 20 (mean 6.67 per row, from 4 to 10).");
    expect(result.text).toContain("- Total takings: 240 (mean 80 per row, from 40 to 110).");
    expect(result.text).toContain("- Average takings per item: 12 (240 / 20).");
    expect(result.text).toContain("- By shop, takings is highest for A: 150 of 240 (62.5%).");
    expect(result.text).toContain('about.md describes the data as: "Two shops."');
    // The approved report holds the figures, and the answer says where.
    expect(readFileSync(path.join(sandbox, "report.md"), "utf8")).toContain("- Total items: 20");
    expect(result.text).toContain("Saved to report.md.");
  });

  it("writes nothing when the person declines the report, and says so", async () => {
    const sandbox = sandboxWith({ "data.csv": "k,v\na,1\nb,2\n" });
    const { result, calls } = await runScripted(sandbox, "deny");
    expect(calls.at(-1)?.name).toBe("save_report");
    expect(existsSync(path.join(sandbox, "report.md"))).toBe(false);
    expect(result.stopReason).toBe("stop");
    expect(result.text).toMatch(/Nothing was written \(.*denied.*\)\.$/);
  });

  it("decides from the conversation alone, so replaying a request in any order gives the same answer", async () => {
    const sandbox = sandboxWith({ "data.csv": "k,v\na,1\nb,2\n" });
    const { model } = await runScripted(sandbox);
    const again = [...model.requests].reverse().map((request) => demoScriptTurn(request));
    const first = model.requests.map((request) => demoScriptTurn(request));
    expect(again.reverse()).toEqual(first);
    expect(first).toHaveLength(6);
  });

  it("says so when the sandbox holds no CSV file", async () => {
    const { result, calls } = await runScripted(sandboxWith({ "notes.txt": "nothing to count" }));
    expect(calls.map((call) => call.name)).toEqual(["list_files"]);
    expect(result.text).toBe("I found no CSV file in the sandbox (it holds: notes.txt).");
  });

  it("skips the derived figures when there is a single numeric column and nothing to group by", async () => {
    const { result, calls } = await runScripted(sandboxWith({ "n.csv": "value\n2\n5\n" }));
    expect(calls.map((call) => call.name)).toEqual([
      "list_files",
      "read_file",
      "column_stats",
      "save_report",
    ]);
    expect(result.text).toContain("- Total value: 7 (mean 3.5 per row, from 2 to 5).");
    expect(result.text).not.toContain("Average");
  });

  it("stops with the tool's error instead of asking again", () => {
    const messages: Message[] = [
      { role: "user", content: "go" },
      assistantMessage([toolCallBlock("t1_list", "list_files", { path: "." })]),
      { role: "user", content: [toolResultBlock("t1_list", "error: no folder '.' in the sandbox", true)] },
    ];
    const turn = demoScriptTurn({ model: SCRIPTED_MODEL_ID, messages }) as FakeTurn;
    expect(turn.message.content).toEqual([
      textBlock("The list_files tool failed (error: no folder '.' in the sandbox), so I stop here."),
    ]);
    expect(turn.usage?.inputTokens).toBeGreaterThan(0);
  });
});
