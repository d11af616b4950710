import type { ContentBlock, Message, ToolResultBlock } from "../../vocabulary/messages.js";
import { EXTERNALIZE_MIN_CHARS, EXTERNALIZE_PREVIEW_CHARS } from "./context-levels.js";
import { shrinkText } from "./shrink-text.js";
import type { ContextArchive } from "../types.js";
import type { WorkingSegment } from "./working-segments.js";

/** How an archived tool result starts; the ref follows. */
export const ARCHIVED_RESULT_PREFIX = "[tool result archived: ";

/** How a tool result cut to a preview (no archive configured) starts. */
export const EXTERNALIZED_RESULT_PREFIX = "[tool result externalized after use] ";

/** Remembers which ref a tool result got, so a later pass does not put the same content again. */
export type ArchivedResultMemo = Map<string, { content: string; ref: string }>;

/** What L1 needs besides the segments. */
export interface ExternalizeOptions {
  archive?: ContextArchive;
  memo: ArchivedResultMemo;
}

/**
 * L1: replaces every tool result of at least 256 chars that the model has already seen (an assistant message
 * follows it) by a marker: `[tool result archived: <ref>] <preview>` when there is an archive, else a 160-char
 * preview. Results the model has not answered yet stay whole. Returns the refs the view now points at.
 */
export function externalizeSeenResults(
  segments: readonly WorkingSegment[],
  options: ExternalizeOptions,
): { segments: WorkingSegment[]; refs: string[] } {
  const refs: string[] = [];
  const lastAssistant = lastAssistantPosition(segments);
  let position = 0;
  const next = segments.map((segment) => {
    let changed = false;
    const messages = segment.messages.map((message) => {
      const seen = position++ < lastAssistant;
      const replaced = seen ? externalizeMessage(message, options, refs) : message;
      if (replaced !== message) changed = true;
      return replaced;
    });
    return changed ? { ...segment, messages } : segment;
  });
  return { segments: next, refs };
}

function lastAssistantPosition(segments: readonly WorkingSegment[]): number {
  let position = 0;
  let last = -1;
  for (const segment of segments) {
    for (const message of segment.messages) {
      if (message.role === "assistant") last = position;
      position++;
    }
  }
  return last;
}

function externalizeMessage(message: Message, options: ExternalizeOptions, refs: string[]): Message {
  if (typeof message.content === "string") return message;
  let changed = false;
  const content = message.content.map((block): ContentBlock => {
    if (block.type !== "tool_result" || !isExternalizable(block)) return block;
    changed = true;
    return { ...block, content: marker(block, options, refs) };
  });
  return changed ? { ...message, content } : message;
}

function isExternalizable(block: ToolResultBlock): boolean {
  if (block.content.length < EXTERNALIZE_MIN_CHARS) return false;
  return (
    !block.content.startsWith(ARCHIVED_RESULT_PREFIX) && !block.content.startsWith(EXTERNALIZED_RESULT_PREFIX)
  );
}

function marker(block: ToolResultBlock, options: ExternalizeOptions, refs: string[]): string {
  const preview = shrinkText(block.content, EXTERNALIZE_PREVIEW_CHARS);
  if (!options.archive) return `${EXTERNALIZED_RESULT_PREFIX}${preview}`;
  const known = options.memo.get(block.id);
  const ref = known && known.content === block.content ? known.ref : options.archive.put(block.content);
  options.memo.set(block.id, { content: block.content, ref });
  if (!refs.includes(ref)) refs.push(ref);
  return `${ARCHIVED_RESULT_PREFIX}${ref}] ${preview}`;
}
