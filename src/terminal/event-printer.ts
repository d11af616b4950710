import type { AgentEvent, AgentEventOf } from "../kernel/vocabulary/events.js";
import { messageText } from "../kernel/vocabulary/messages.js";
import type { Usage } from "../kernel/vocabulary/model.js";
import { terminalStyle, type TerminalStyle } from "./terminal-style.js";

/** Options of {@link EventPrinter}. */
export interface EventPrinterOptions {
  write(text: string): void;
  /** ANSI colours (default false). */
  color?: boolean;
  /** Longest tool-result excerpt (default 160 characters). */
  resultChars?: number;
  /** Longest tool-argument excerpt (default 100 characters). */
  argsChars?: number;
}

/** Cuts `text` to `max` characters on one line, saying how long it was. */
export function excerpt(text: string, max: number): string {
  const line = text.replace(/\s*\r?\n\s*/g, " ⏎ ").trim();
  return line.length <= max ? line : `${line.slice(0, max)}… (${text.length} chars)`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** `in 1200 / out 80 tokens`, with the cache counts when the provider reports them. */
export function formatUsage(usage: Usage): string {
  const cached = usage.cacheReadTokens ? `, ${usage.cacheReadTokens} cached` : "";
  return `${usage.inputTokens} in${cached} / ${usage.outputTokens} out`;
}

/**
 * Renders the events of a run for a terminal as they arrive: a header per turn, the model's text as it
 * streams, each tool call with its arguments and a cut-down result, errors, and a closing line with usage.
 */
export class EventPrinter {
  private readonly style: TerminalStyle;
  private atLineStart = true;
  private textThisTurn = false;
  private turns = 0;
  private toolCalls = 0;

  constructor(private readonly options: EventPrinterOptions) {
    this.style = terminalStyle(options.color ?? false);
  }

  /** Prints one event. */
  print(event: AgentEvent): void {
    switch (event.type) {
      case "turn_start":
        return this.turnStart(event);
      case "text_delta":
        return this.text(event.text);
      case "reasoning_delta":
        return this.text(event.text, this.style.dim);
      case "message":
        return this.message(event);
      case "tool_call_start":
        return this.toolCall(event);
      case "tool_result":
        return this.toolResult(event);
      case "tool_recovered":
        return this.line(this.style.yellow(`  ↻ ${event.name} was interrupted by a crash; recovered`));
      case "error":
        return this.line(this.style.red(`  ! ${event.fatal ? "fatal " : ""}error: ${event.error.message}`));
      case "diagnostic":
        return this.line(this.style.dim(`  · ${event.level} ${event.code}: ${event.message}`));
      case "approval_request":
        return this.line(
          this.style.yellow(
            `  ? ${event.call.name} waits for approval (the run is parked durably until then)`,
          ),
        );
      case "approval_resolved":
        return this.approval(event);
      case "done":
        return this.done(event);
      default:
        return;
    }
  }

  private turnStart(event: AgentEventOf<"turn_start">): void {
    this.turns++;
    this.textThisTurn = false;
    this.line(this.style.cyan(this.style.bold(`── turn ${event.turn} ──`)));
  }

  private message(event: AgentEventOf<"message">): void {
    // Providers that do not stream still show their text once.
    const text = messageText(event.message);
    if (!this.textThisTurn && text !== "") this.text(text);
  }

  private toolCall(event: AgentEventOf<"tool_call_start">): void {
    this.toolCalls++;
    const args = excerpt(JSON.stringify(event.call.input) ?? "", this.options.argsChars ?? 100);
    this.line(`  ${this.style.yellow("→")} ${this.style.bold(event.call.name)} ${this.style.dim(args)}`);
  }

  private toolResult(event: AgentEventOf<"tool_result">): void {
    const { name, content, isError } = event.result;
    const shown = excerpt(content, this.options.resultChars ?? 160);
    const mark = isError ? this.style.red("✗") : this.style.green("←");
    this.line(`  ${mark} ${name}: ${isError ? this.style.red(shown) : shown}`);
  }

  private approval(event: AgentEventOf<"approval_resolved">): void {
    const who = event.actor ? ` by ${event.actor}` : event.by === "auto" ? " automatically" : "";
    const why = event.reason ? `: ${event.reason}` : "";
    const key = event.keyId ? ` (signed, key ${event.keyId})` : "";
    const text = `  ${event.decision === "allow" ? "✓ approved" : "✗ denied"}${who}${key}${why}`;
    this.line(event.decision === "allow" ? this.style.green(text) : this.style.red(text));
  }

  private done(event: AgentEventOf<"done">): void {
    const { reason, result } = event;
    const counts = `${plural(this.turns, "turn")} · ${plural(this.toolCalls, "tool call")}`;
    const summary = `── done: ${reason} · ${counts} · tokens ${formatUsage(result.usage)} ──`;
    this.line(this.style.cyan(this.style.bold(summary)));
  }

  private text(text: string, paint: (text: string) => string = (plain) => plain): void {
    if (text === "") return;
    this.textThisTurn = true;
    this.options.write(paint(text));
    this.atLineStart = text.endsWith("\n");
  }

  /** Writes a whole line, first ending any text still open on the current one. */
  private line(text: string): void {
    if (!this.atLineStart) this.options.write("\n");
    this.options.write(`${text}\n`);
    this.atLineStart = true;
  }
}
