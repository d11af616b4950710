import type { CodecError } from "../vocabulary/errors.js";
import { userMessage, type Message } from "../vocabulary/messages.js";
import type { ToolSpec } from "../vocabulary/tools.js";

/**
 * The default user message asking the model to fix a response its codec could not decode: names the decode error
 * and the available tools (a misspelt or invented tool is a common cause) and numbers the attempt. Codecs append
 * a `formatReminder` restating their protocol.
 */
export function repairPrompt(
  error: CodecError,
  attempt: number,
  tools: ToolSpec[],
  formatReminder?: string,
): Message {
  const available = tools.length
    ? `Available tools: ${tools.map((tool) => tool.name).join(", ")}.`
    : "No tools are available.";
  const parts = [
    `Repair the malformed tool-call response and try again (${error.message}).`,
    available,
    formatReminder,
    `Repair attempt ${attempt}.`,
  ];
  return userMessage(parts.filter(Boolean).join(" "));
}

/** The repair prompt the kernel falls back to when a codec has none of its own; same as {@link repairPrompt}. */
export const defaultRepairPrompt: (error: CodecError, attempt: number, tools: ToolSpec[]) => Message =
  repairPrompt;
