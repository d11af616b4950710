import type { UserAnswer, UserQuestion } from "../kernel/permission/types.js";

/** A decision typed at an approval prompt. */
export interface ApprovalReply {
  decision: "allow" | "deny";
  reason?: string;
}

const ALLOW = /^(?:y|yes|allow)(?:\s+(.*))?$/i;
const DENY = /^(?:n|no|deny)(?:\s+(.*))?$/i;

/**
 * Reads an approval prompt's reply: `y`/`yes`/`allow` or `n`/`no`/`deny`, optionally followed by a reason
 * (`n not on a Friday`). Anything else is undefined (ask again).
 */
export function parseApprovalReply(reply: string): ApprovalReply | undefined {
  const text = reply.trim();
  const allow = ALLOW.exec(text);
  const deny = allow ? null : DENY.exec(text);
  const match = allow ?? deny;
  if (!match) return undefined;
  const reason = match[1]?.trim();
  return { decision: allow ? "allow" : "deny", ...(reason ? { reason } : {}) };
}

function optionFor(item: string, options: readonly string[]): string | undefined {
  if (/^\d+$/.test(item)) return options[Number(item) - 1];
  return options.find((option) => option.toLowerCase() === item.toLowerCase());
}

/**
 * Reads the reply to a question. With options, `2`, `north` or `1,3` select them (by number from 1 or by
 * name; several only when the question allows it); any other reply is free text. Empty is undefined.
 */
export function parseQuestionReply(reply: string, question: UserQuestion): UserAnswer | undefined {
  const text = reply.trim();
  if (text === "") return undefined;
  const options = question.options ?? [];
  if (options.length === 0) return { text };
  const items = text.split(",").map((item) => item.trim());
  const selected = items.map((item) => optionFor(item, options));
  if (selected.every((option): option is string => option !== undefined)) {
    if (selected.length > 1 && question.multiSelect !== true) return undefined;
    return { selected: [...new Set(selected)] };
  }
  return { text };
}

/** `north` / `north, south` / `"free text"`. */
export function formatAnswer(answer: UserAnswer): string {
  const parts: string[] = [];
  if (answer.selected && answer.selected.length > 0) parts.push(answer.selected.join(", "));
  if (answer.text !== undefined && answer.text !== "") parts.push(JSON.stringify(answer.text));
  return parts.length > 0 ? parts.join(" · ") : "(empty)";
}
