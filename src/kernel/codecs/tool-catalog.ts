import type { ToolSpec } from "../vocabulary/tools.js";

/**
 * The tool list that prompt codecs put in the system prompt: one line per tool with its name, description and
 * JSON Schema for the input. Tools keep their given order, so the system prompt (and any prompt cache) is stable.
 * @example toolCatalog([{ name: "echo", description: "Echoes", parameters: { type: "object" } }])
 * // '- echo: Echoes\n  input schema: {"type":"object"}'
 */
export function toolCatalog(tools: ToolSpec[]): string {
  if (tools.length === 0) return "(no tools are available)";
  return tools
    .map((tool) => `- ${tool.name}: ${tool.description}\n  input schema: ${JSON.stringify(tool.parameters)}`)
    .join("\n");
}
