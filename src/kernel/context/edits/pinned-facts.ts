import { messageText, type Message } from "../../vocabulary/messages.js";
import type { ContextFact } from "../types.js";

/** Sentences that state a goal (English and Chinese). */
export const GOAL_PATTERN = /\b(?:goal|objective)s?\b|目标|目的/i;

/** Sentences that state a constraint (English and Chinese). */
export const CONSTRAINT_PATTERN =
  /\b(?:must|never|always|do not|don't|shall not|required|requirements?|constraints?)\b|必须|不要|禁止|务必|不得|不能|一定要/i;

/** The first line of the pinned-facts message of L4 and L5. */
export const PINNED_FACTS_HEADER = "[Pinned facts — verbatim]";

/** Prefixes of injected notes (task reminders, background completions) that are not the user's own words. */
export const INJECTED_NOTE_PREFIXES = ["<system-reminder>", "<background-task-completed"] as const;

/** True for a user note the runtime injected rather than the user wrote. */
export function isInjectedNote(content: string): boolean {
  return INJECTED_NOTE_PREFIXES.some((prefix) => content.startsWith(prefix));
}

/**
 * The facts to pin: the first user message verbatim as the `goal` (unless `known` already has one), then every
 * sentence of later user messages that matches the goal or constraint patterns. Facts in `known` come first;
 * duplicates (same text) are dropped.
 */
export function extractFacts(
  messages: readonly Message[],
  known: readonly ContextFact[] = [],
): ContextFact[] {
  const facts = [...known];
  const seen = new Set(known.map((fact) => fact.text));
  const add = (fact: ContextFact): void => {
    if (seen.has(fact.text)) return;
    seen.add(fact.text);
    facts.push(fact);
  };
  let goalPinned = known.some((fact) => fact.kind === "goal");
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content !== "string") continue;
    const text = messageText(message).trim();
    if (!text || isInjectedNote(text) || isPinnedFactsMessage(message)) continue;
    if (!goalPinned) {
      goalPinned = true;
      add({ kind: "goal", text });
      continue;
    }
    for (const sentence of splitSentences(text)) {
      if (CONSTRAINT_PATTERN.test(sentence)) add({ kind: "constraint", text: sentence });
      else if (GOAL_PATTERN.test(sentence)) add({ kind: "goal", text: sentence });
    }
  }
  return facts;
}

/** Splits on sentence ends (Latin ones need following space, CJK ones do not) and on line breaks. */
function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[。！？；])|(?<=[.!?;])\s+|\n+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

/** The user message that pins the facts verbatim at the head of an L4/L5 view. */
export function pinnedFactsMessage(facts: readonly ContextFact[]): Message {
  const lines = facts.length === 0 ? ["(none)"] : facts.map((fact) => `- ${fact.kind}: ${fact.text}`);
  return { role: "user", content: `${PINNED_FACTS_HEADER}\n${lines.join("\n")}` };
}

/** True for a message built by `pinnedFactsMessage`. */
export function isPinnedFactsMessage(message: Message): boolean {
  return (
    message.role === "user" &&
    typeof message.content === "string" &&
    message.content.startsWith(PINNED_FACTS_HEADER)
  );
}
