import type { ContentBlock, Message } from "../../vocabulary/messages.js";

/**
 * Renders messages as a plain-text transcript, one `Role: …` paragraph per message. A summariser reads history
 * this way instead of as native tool-call blocks, so the summary request works with any provider and codec
 * (prompt-based codecs serve models without native tool support, which would reject such blocks).
 */
export function renderTranscript(messages: readonly Message[]): string {
  const paragraphs: string[] = [];
  for (const message of messages) {
    const content = renderContent(message);
    if (content.length > 0) paragraphs.push(`${roleLabel(message)}: ${content}`);
  }
  return paragraphs.join("\n\n");
}

/** The speaker label of a message; user messages that only carry tool results are labelled as tool output. */
function roleLabel(message: Message): string {
  const onlyResults =
    typeof message.content !== "string" &&
    message.content.length > 0 &&
    message.content.every((block) => block.type === "tool_result");
  if (onlyResults || message.role === "tool") return "Tool";
  return message.role === "assistant" ? "Assistant" : message.role === "system" ? "System" : "User";
}

/** The text of a message's content, blocks joined by newlines. */
function renderContent(message: Message): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map(renderBlock)
    .filter((text) => text.length > 0)
    .join("\n");
}

/** One block as text; reasoning and opaque native blocks are left out. */
function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "tool_call":
      return `[called ${block.name} (${block.id}) with ${JSON.stringify(block.input) ?? "no input"}]`;
    case "tool_result":
      return `[result of ${block.id}${block.isError ? " (error)" : ""}] ${block.content}`;
    case "image":
      return "[image]";
    case "compaction":
      return block.content ?? "";
    default:
      return "";
  }
}
