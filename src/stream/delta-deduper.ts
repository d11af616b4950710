import type { AgentEvent } from "../kernel/events.js";
import type { StreamDelta } from "./stream-delta.js";

interface Shown {
  text: string;
  divergedAttempts: Set<number>;
}

/**
 * Turns live deltas into `text_delta`/`reasoning_delta` events, dropping what a retried attempt repeats: each
 * model call remembers the text already shown; a later attempt's delta shows only what goes beyond it. When a
 * retry produced different text than what was shown, a `diagnostic` says so once (the final `message` event has
 * the true text); what goes beyond is still shown, so nothing is lost.
 */
export class DeltaDeduper {
  private readonly shown = new Map<string, Shown>();

  /** The events to yield for one delta (often one, none when all of it was shown before). */
  accept(delta: StreamDelta): AgentEvent[] {
    if (delta.text === "") return [];
    const id = `${delta.key}/${delta.kind}`;
    const shown = this.shown.get(id) ?? { text: "", divergedAttempts: new Set<number>() };
    this.shown.set(id, shown);
    const events: AgentEvent[] = [];
    const overlap = Math.max(0, Math.min(shown.text.length - delta.at, delta.text.length));
    const repeated = delta.text.slice(0, overlap);
    if (
      repeated !== shown.text.slice(delta.at, delta.at + overlap) &&
      !shown.divergedAttempts.has(delta.attempt)
    ) {
      shown.divergedAttempts.add(delta.attempt);
      const message = `model call ${delta.key} was retried (attempt ${delta.attempt}) and its text differs from what was already shown; the final message has the true text`;
      events.push({ type: "diagnostic", level: "warning", code: "stream_diverged", message });
    }
    const fresh = delta.text.slice(overlap);
    if (fresh === "") return events;
    if (delta.at + overlap > shown.text.length) shown.text = shown.text.padEnd(delta.at + overlap, "\u0000");
    shown.text += fresh;
    events.push(
      delta.kind === "text" ? { type: "text_delta", text: fresh } : { type: "reasoning_delta", text: fresh },
    );
    return events;
  }
}
