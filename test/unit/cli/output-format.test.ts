import { describe, expect, it } from "vitest";
import { historyEventCells } from "../../../src/cli/render/history-rows.js";
import { jsonListOutput, jsonOutput } from "../../../src/cli/render/json-output.js";
import { runCliInProcess } from "../../support/cli-in-process.js";

const run = (...argv: string[]) => runCliInProcess(argv);

/** Every command that prints data takes `-o, --output` (and `--json`, meaning `-o json`). */
const COMMANDS: string[][] = [
  ["list"],
  ["show", "s"],
  ["transcript", "s"],
  ["history", "s"],
  ["fork", "s", "--turn", "1"],
  ["run", "agent", "hi"],
  ["watch", "s"],
];

describe("-o, --output", () => {
  it("is in the help of every command that prints data, with --json as its alias", async () => {
    for (const [command] of COMMANDS) {
      const help = await run(command!, "--help");
      // Commander wraps the help at 80 columns.
      const text = help.stdout.replace(/\s+/g, " ");
      expect({ command, text }).toMatchObject({
        text: expect.stringMatching(/-o, --output <format> .*choices: "table", "json", "jsonl"/),
      });
      expect(text).toContain("--json the same as -o json");
    }
  });

  it("refuses a format it does not know, with exit 2 and the choices", async () => {
    for (const argv of COMMANDS) {
      const result = await run(...argv, "-o", "yaml");
      expect({ argv, code: result.code, stderr: result.stderr }).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /argument 'yaml' is invalid\. Allowed choices are table, json, jsonl\./,
        ),
      });
    }
  });

  it("tells `history -o <file>` (its old meaning) to use --file", async () => {
    const result = await run("history", "s", "-o", "out/h.json");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("To write the history to a file: --file out/h.json");
  });

  it("prints one indented value for json and one line per item for jsonl", () => {
    expect(jsonOutput({ a: 1 }, "json")).toBe('{\n  "a": 1\n}\n');
    expect(jsonOutput({ a: 1 }, "jsonl")).toBe('{"a":1}\n');
    expect(jsonListOutput([{ a: 1 }, { a: 2 }], "jsonl")).toBe('{"a":1}\n{"a":2}\n');
    expect(JSON.parse(jsonListOutput([{ a: 1 }], "json"))).toEqual([{ a: 1 }]);
    expect(jsonListOutput([], "jsonl")).toBe("");
  });

  it("names history events in the table the way Temporal's CLI does", () => {
    const cells = historyEventCells({
      eventId: "5",
      eventTime: "2026-01-01T00:00:00Z",
      eventType: "EVENT_TYPE_WORKFLOW_TASK_COMPLETED",
    });
    expect(cells).toEqual(["5", "2026-01-01T00:00:00Z", "WorkflowTaskCompleted"]);
  });
});
