import type { ToolOutput } from "../kernel/vocabulary/tools.js";

/** One content block of an MCP tool result, as far as this mapping reads it. */
type McpContentBlock = { type: string } & Record<string, unknown>;

/** An MCP `tools/call` result (or the legacy `toolResult` form), as far as this mapping reads it. */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  toolResult?: unknown;
}

/**
 * The tool result the model sees of an MCP result: text blocks verbatim, embedded text resources with their URI, and
 * a bracketed note for what a text conversation cannot carry (images, audio, binary resources: their type and size),
 * one block per line. Structured content stands in when there is no content block. `isError` makes an error result.
 */
export function mcpResultOutput(result: McpCallResult): ToolOutput {
  const blocks = Array.isArray(result.content) ? (result.content as McpContentBlock[]) : [];
  const parts = blocks.map(blockText);
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  const content = parts.length > 0 ? parts.join("\n") : "(no content)";
  return result.isError === true ? { content, isError: true } : content;
}

function blockText(block: McpContentBlock): string {
  switch (block.type) {
    case "text":
      return String(block.text ?? "");
    case "image":
    case "audio":
      return `[${block.type} ${String(block.mimeType ?? "")}, ${base64Bytes(block.data)} bytes, not shown]`;
    case "resource_link":
      return `[resource link: ${String(block.name ?? "")} <${String(block.uri ?? "")}>]${describe(block.description)}`;
    case "resource":
      return resourceText(block.resource);
    default:
      return `[${block.type} content, not shown]`;
  }
}

function resourceText(resource: unknown): string {
  const entry = (typeof resource === "object" && resource !== null ? resource : {}) as Record<
    string,
    unknown
  >;
  const uri = String(entry.uri ?? "");
  if (typeof entry.text === "string") return `[resource <${uri}>]\n${entry.text}`;
  return `[resource <${uri}> ${String(entry.mimeType ?? "")}, ${base64Bytes(entry.blob)} bytes, not shown]`;
}

function describe(description: unknown): string {
  return typeof description === "string" && description !== "" ? ` ${description}` : "";
}

/** The size of base64 data once decoded. */
function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
