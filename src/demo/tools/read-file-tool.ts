import { z } from "zod";
import { defineTool, type Tool } from "../../kernel/vocabulary/tools.js";
import { readSandboxFile } from "./read-sandbox-file.js";
import { toolFailure } from "./tool-failure.js";

/** Enough for the demo's files; a larger file is cut, and the model is told so. */
const MAX_BYTES = 64 * 1024;

const schema = z.object({
  path: z.string().describe("File to read, relative to the sandbox root, e.g. 'sales.csv'"),
});

/** `read_file`: the text of a file inside the sandbox (the first 64 KB). Read-only, so idempotent. */
export function readFileTool(sandboxDir: string): Tool<z.infer<typeof schema>> {
  return defineTool({
    name: "read_file",
    description: "Reads a text file of the sandbox and returns its content (at most 64 KB).",
    schema,
    retry: "idempotent",
    security: { filesystem: "read", network: "none", sideEffects: false },
    async execute(input) {
      try {
        const { text, size, truncated } = await readSandboxFile(sandboxDir, input.path, MAX_BYTES);
        return truncated ? `${text}\n… (truncated: showing ${MAX_BYTES} of ${size} bytes)` : text;
      } catch (error) {
        return toolFailure(error);
      }
    },
  });
}
