import { z } from "zod";
import { defineTool, type Tool } from "../../kernel/vocabulary/tools.js";
import { columnStats } from "./column-stats.js";
import { parseCsv } from "./csv-table.js";
import { readSandboxFile } from "./read-sandbox-file.js";
import { toolFailure } from "./tool-failure.js";

const MAX_BYTES = 10 * 1024 * 1024;

const schema = z.object({
  path: z.string().describe("CSV file relative to the sandbox root; its first line is the header"),
  column: z.string().describe("Name of the numeric column to summarise"),
  groupBy: z.string().optional().describe("Optional column whose values split the rows into groups"),
});

/**
 * `column_stats`: count, sum, mean, min and max of a CSV column (optionally per group), as JSON. It computes
 * instead of letting the model add up numbers, which models do badly. Read-only, so idempotent.
 */
export function columnStatsTool(sandboxDir: string): Tool<z.infer<typeof schema>> {
  return defineTool({
    name: "column_stats",
    description:
      "Computes count, sum, mean, min and max of a numeric column of a CSV file in the sandbox, optionally " +
      "grouped by another column (groups sorted by sum, largest first). Returns JSON.",
    schema,
    retry: "idempotent",
    security: { filesystem: "read", network: "none", sideEffects: false },
    async execute(input) {
      try {
        const file = await readSandboxFile(sandboxDir, input.path, MAX_BYTES);
        if (file.truncated) return toolFailure(`'${input.path}' is larger than ${MAX_BYTES} bytes`);
        return JSON.stringify({
          file: input.path,
          ...columnStats(parseCsv(file.text), input.column, input.groupBy),
        });
      } catch (error) {
        return toolFailure(error);
      }
    },
  });
}
