import { formatUsage } from "../../terminal/event-printer.js";
import { terminalStyle, type TerminalStyle } from "../../terminal/terminal-style.js";
import type { AgentEvent, AgentEventOf } from "../../kernel/vocabulary/events.js";
import { messageText } from "../../kernel/vocabulary/messages.js";
import { eventSummary } from "./event-summary.js";

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * Renders a run's events for a terminal as they arrive: the model's text live, every tool call, result,
 * approval and question on a line of its own, and a closing line with the usage.
 */
export class EventRenderer {
  private readonly style: TerminalStyle;
  private atLineStart = true;
  private textThisTurn = false;
  private turns = 0;
  private toolCalls = 0;

  constructor(
    private readonly write: (text: string) => void,
    color = false,
  ) {
    this.style = terminalStyle(color);
  }

  /** Renders one event. */
  render(event: AgentEvent): void {
    switch (event.type) {
      case "turn_start":
        this.turns++;
        this.textThisTurn = false;
        return;
      case "text_delta":
        return this.text(event.text);
      case "reasoning_delta":
        return this.text(event.text, this.style.dim);
      case "message": {
        // Providers that do not stream still show their text once.
        const text = messageText(event.message);
        if (!this.textThisTurn && text !== "") this.text(text);
        return;
      }
      case "done":
        return this.done(event);
      default: {
        if (event.type === "tool_call_start") this.toolCalls++;
        const line = eventSummary(event, this.style);
        if (line !== undefined) this.line(line);
      }
    }
  }

  /** Ends the text line still open, so a prompt or a message starts on a line of its own. */
  endLine(): void {
    if (this.atLineStart) return;
    this.write("\n");
    this.atLineStart = true;
  }

  private done(event: AgentEventOf<"done">): void {
    const counts = `${plural(this.turns, "turn")} · ${plural(this.toolCalls, "tool call")}`;
    this.line(
      this.style.bold(`── done: ${event.reason} · ${counts} · tokens ${formatUsage(event.result.usage)} ──`),
    );
  }

  private text(text: string, paint: (text: string) => string = (plain) => plain): void {
    if (text === "") return;
    this.textThisTurn = true;
    this.write(paint(text));
    this.atLineStart = text.endsWith("\n");
  }

  private line(text: string): void {
    this.endLine();
    this.write(`${text}\n`);
  }
}
