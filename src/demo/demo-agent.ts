import { defineAgent, type AgentDefinition } from "../define-agent.js";
import { calculateTool } from "./tools/calculate-tool.js";
import { columnStatsTool } from "./tools/column-stats-tool.js";
import { listFilesTool } from "./tools/list-files-tool.js";
import { readFileTool } from "./tools/read-file-tool.js";
import { SAVE_REPORT_TOOL, saveReportTool } from "./tools/save-report-tool.js";

/** The name sessions use to run the demo agent. */
export const DEMO_AGENT_NAME = "sandbox-analyst";

const SYSTEM = [
  "You are a careful data analyst. Your files are in a sandbox folder; reach them only through your tools.",
  "Start with list_files, read what is relevant, and compute every figure with column_stats or calculate:",
  "never add up or divide numbers yourself. When you have the figures, save them with save_report to",
  "'report.md' (a person approves the write; if they decline, write nothing else), then answer briefly, with the",
  "figures and where they come from.",
].join(" ");

/**
 * The demo agent: five real tools confined to `sandboxDir` (the three that only read are idempotent, so Temporal
 * retries them; `calculate` and `save_report` keep the at-most-once default), on the given model id. Writing the
 * report is the one side effect, and a person approves it: the run waits durably for the decision.
 */
export function demoAgent(sandboxDir: string, model: string): AgentDefinition {
  return defineAgent({
    name: DEMO_AGENT_NAME,
    model,
    system: SYSTEM,
    tools: [
      listFilesTool(sandboxDir),
      readFileTool(sandboxDir),
      columnStatsTool(sandboxDir),
      calculateTool(),
      saveReportTool(sandboxDir),
    ],
    permission: { ask: [SAVE_REPORT_TOOL] },
    maxTurns: 12,
    durable: { toolTimeoutMs: 30_000 },
  });
}
