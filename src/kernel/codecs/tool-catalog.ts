import type { ToolSpec } from "../vocabulary/tools.js";

/**
 * The tool list prompt codecs put in the system prompt: per tool a `- name: description` line and its input JSON
 * Schema. Tools keep their given order, so the system prompt (and any prompt cache) is stable.
 */
export function toolCatalog(tools: ToolSpec[]): string {
  if (tools.length === 0) return "(no tools are available)";
  return tools
    .map((tool) => `- ${tool.name}: ${tool.description}\n  input schema: ${JSON.stringify(tool.parameters)}`)
    .join("\n");
}
