import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { defineTool, type Tool } from "../../kernel/vocabulary/tools.js";
import { resolveSandboxPath } from "../sandbox-path.js";
import { toolFailure } from "./tool-failure.js";

const schema = z.object({
  path: z.string().default(".").describe("Folder to list, relative to the sandbox root (default: the root)"),
});

/** One line per entry: `name/` for folders, `name (N bytes)` for files, sorted by name. */
async function describeEntries(folder: string): Promise<string> {
  const entries = await readdir(folder, { withFileTypes: true });
  const lines = await Promise.all(
    entries
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(async (entry) => {
        if (entry.isDirectory()) return `${entry.name}/`;
        const { size } = await stat(path.join(folder, entry.name));
        return `${entry.name} (${size} bytes)`;
      }),
  );
  return lines.length === 0 ? "(empty folder)" : lines.join("\n");
}

/** `list_files`: the entries of a folder inside the sandbox. Read-only, so retried freely (idempotent). */
export function listFilesTool(sandboxDir: string): Tool<z.infer<typeof schema>> {
  return defineTool({
    name: "list_files",
    description: "Lists the files and folders in a folder of the sandbox. Folders end with '/'.",
    schema,
    retry: "idempotent",
    security: { filesystem: "read", network: "none", sideEffects: false },
    async execute(input) {
      try {
        const folder = resolveSandboxPath(sandboxDir, input.path);
        if (!(await stat(folder)).isDirectory())
          return toolFailure(`'${input.path}' is a file, not a folder; use read_file`);
        return await describeEntries(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT")
          return toolFailure(`no folder '${input.path}' in the sandbox`);
        return toolFailure(error);
      }
    },
  });
}
