import type { CodecError } from "../vocabulary/errors.js";
import { userMessage, type Message } from "../vocabulary/messages.js";
import type { ToolSpec } from "../vocabulary/tools.js";

/**
 * The default user message that asks the model to fix a response its codec could not decode. It names the
 * decode error and the tools that exist (a misspelt or invented tool name is a common cause), and counts the
 * attempt so a transcript shows how many repairs a turn took. Codecs append a `formatReminder` that restates
 * their protocol.
 * @example repairPrompt(new CodecError("bad JSON"), 1, tools).content
 * // "Repair the malformed tool-call response and try again (bad JSON). Available tools: echo. Repair attempt 1."
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
