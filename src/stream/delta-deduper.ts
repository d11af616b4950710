import type { AgentEvent } from "../kernel/vocabulary/events.js";
import type { StreamDelta } from "../contract/stream/stream-delta.js";

interface Shown {
  text: string;
  divergedAttempts: Set<number>;
}

/**
 * Turns live deltas into `text_delta`/`reasoning_delta` events, dropping what a retried attempt repeats: per model
 * call it remembers what was shown and shows only what goes beyond. If a retry's text differs from what was shown, a
 * `diagnostic` says so once (the final `message` has the true text).
 */
export class DeltaDeduper {
  private readonly shown = new Map<string, Shown>();

  /**
   * Notes that the first `length` characters of a call's output of a kind were shown elsewhere (before a reader
   * resumed): what follows shows; those are never shown again.
   */
  skip(key: string, kind: StreamDelta["kind"], length: number): void {
    const shown = this.entry(`${key}/${kind}`);
    if (shown.text.length < length) shown.text = shown.text.padEnd(length, "\u0000");
  }

  /**
   * What goes beyond what was shown of a call's output, given the output's final text (the durable message), or
   * undefined when what was shown is not where the final text begins (a retry or middleware changed it). Characters
   * shown elsewhere (see `skip`) match any.
   */
  tail(key: string, kind: StreamDelta["kind"], final: string): string | undefined {
    const shown = this.shown.get(`${key}/${kind}`)?.text ?? "";
    if (shown.length > final.length) return undefined;
    for (let index = 0; index < shown.length; index++)
      if (shown[index] !== "\u0000" && shown[index] !== final[index]) return undefined;
    return final.slice(shown.length);
  }

  /** The events to yield for one delta (often one, none when all of it was shown before). */
  accept(delta: StreamDelta): AgentEvent[] {
    if (delta.text === "") return [];
    const shown = this.entry(`${delta.key}/${delta.kind}`);
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

  private entry(id: string): Shown {
    const shown = this.shown.get(id) ?? { text: "", divergedAttempts: new Set<number>() };
    this.shown.set(id, shown);
    return shown;
  }
}
