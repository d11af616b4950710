import type { ToolOutput } from "../../kernel/vocabulary/tools.js";

/**
 * The error result a demo tool returns instead of throwing: the model reads the message and can correct
 * itself (another path, another column), and the run goes on.
 */
export function toolFailure(error: unknown): ToolOutput {
  const message = error instanceof Error ? error.message : String(error);
  return { content: `error: ${message}`, isError: true };
}
