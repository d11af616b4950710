import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defineTool, type Tool } from "../../kernel/vocabulary/tools.js";
import { resolveSandboxPath } from "../sandbox-path.js";
import { toolFailure } from "./tool-failure.js";

/** The name the demo's permission rule asks a person about. */
export const SAVE_REPORT_TOOL = "save_report";

const schema = z.object({
  path: z.string().describe("Where to write, relative to the sandbox root, e.g. 'report.md'"),
  content: z.string().describe("The report, as Markdown"),
});

/**
 * `save_report`: writes a text file into the sandbox. The demo's only tool with a side effect, so the demo agent's
 * permission rule asks a person before every call, and it keeps the at-most-once retry class (a write is never
 * repeated behind anyone's back).
 */
export function saveReportTool(sandboxDir: string): Tool<z.infer<typeof schema>> {
  return defineTool({
    name: SAVE_REPORT_TOOL,
    description:
      "Writes a Markdown report into the sandbox (a person approves each write). Returns what it wrote.",
    schema,
    security: { filesystem: "write", network: "none", sideEffects: true },
    execute(input) {
      try {
        const file = resolveSandboxPath(sandboxDir, input.path);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, input.content);
        return `saved ${input.path} (${Buffer.byteLength(input.content)} bytes)`;
      } catch (error) {
        return toolFailure(error);
      }
    },
  });
}
