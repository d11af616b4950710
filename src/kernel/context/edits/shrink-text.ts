import type { ContentBlock, Message } from "../../vocabulary/messages.js";

/**
 * Keeps `maxChars` characters of `text`: the head and the tail (errors and conclusions tend to sit at the end),
 * joined by a marker that says how much was cut. Text within the limit is returned as is.
 */
export function shrinkText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const headChars = Math.ceil(maxChars * 0.75);
  const head = safeSlice(text, 0, headChars);
  const tail = safeSlice(text, text.length - (maxChars - head.length), text.length);
  return `${head}\n[… ${text.length - head.length - tail.length} chars omitted …]\n${tail}`;
}

/** Slices without splitting a surrogate pair, which would leave invalid UTF-16 for the provider. */
function safeSlice(text: string, start: number, end: number): string {
  let from = start;
  let to = end;
  if (from > 0 && from < text.length && isLowSurrogate(text.charCodeAt(from))) from++;
  if (to > 0 && to < text.length && isLowSurrogate(text.charCodeAt(to))) to--;
  return text.slice(from, Math.max(from, to));
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Shrinks every text a message carries: string content, text, reasoning and tool-result blocks, compaction
 * content, and the string leaves of tool-call inputs (so the input stays a valid object). Returns the same
 * message when nothing was longer than `maxChars`.
 */
export function shrinkMessage(message: Message, maxChars: number): Message {
  if (typeof message.content === "string") {
    const content = shrinkText(message.content, maxChars);
    return content === message.content ? message : { ...message, content };
  }
  let changed = false;
  const content = message.content.map((block) => {
    const next = shrinkBlock(block, maxChars);
    if (next !== block) changed = true;
    return next;
  });
  return changed ? { ...message, content } : message;
}

function shrinkBlock(block: ContentBlock, maxChars: number): ContentBlock {
  switch (block.type) {
    case "text":
    case "reasoning": {
      const text = shrinkText(block.text, maxChars);
      return text === block.text ? block : { ...block, text };
    }
    case "tool_result": {
      const content = shrinkText(block.content, maxChars);
      return content === block.content ? block : { ...block, content };
    }
    case "compaction": {
      if (block.content === null) return block;
      const content = shrinkText(block.content, maxChars);
      return content === block.content ? block : { ...block, content };
    }
    case "tool_call": {
      const input = shrinkLeaves(block.input, maxChars);
      return input === block.input ? block : { ...block, input };
    }
    default:
      return block;
  }
}

/** Shrinks the string leaves of a JSON value; returns the same value when nothing changed. */
function shrinkLeaves(value: unknown, maxChars: number): unknown {
  if (typeof value === "string") return shrinkText(value, maxChars);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => shrinkLeaves(item, maxChars));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    out[key] = shrinkLeaves(item, maxChars);
    if (out[key] !== item) changed = true;
  }
  return changed ? out : value;
}
