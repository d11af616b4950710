import { describeOverrun } from "../../kernel/vocabulary/budget.js";
import { excerpt, formatUsage } from "../../terminal/event-printer.js";
import { formatAnswer } from "../../terminal/human-replies.js";
import { terminalStyle, type TerminalStyle } from "../../terminal/terminal-style.js";
import type { AgentEvent, AgentEventOf } from "../../kernel/vocabulary/events.js";
import { messageText } from "../../kernel/vocabulary/messages.js";

/** How long excerpts may be. */
export interface SummaryLimits {
  /** Tool arguments (default 100 characters). */
  argsChars?: number;
  /** Tool results and message text (default 160 characters). */
  resultChars?: number;
}

function json(value: unknown, max: number): string {
  return excerpt(JSON.stringify(value) ?? "", max);
}

function decisionLine(event: AgentEventOf<"approval_resolved">, style: TerminalStyle): string {
  const who = `${event.actor ?? event.by}${event.keyId ? ` (signed, key ${event.keyId})` : ""}`;
  const why = event.reason ? ` (${event.reason})` : "";
  const verdict =
    event.decision === "allow" ? style.green(`✓ ${event.id} allowed`) : style.red(`✗ ${event.id} denied`);
  return `  ${verdict} by ${who}${why}`;
}

function questionLine(event: AgentEventOf<"input_request">, style: TerminalStyle): string {
  const { question, options, multiSelect } = event.question;
  const choices =
    options && options.length > 0 ? ` [${options.join(", ")}]${multiSelect ? " (several)" : ""}` : "";
  return `  ${style.yellow("?")} question ${style.bold(event.call.id)}: ${question}${choices}`;
}

type Summarizer = (
  event: AgentEvent,
  style: TerminalStyle,
  limits: Required<SummaryLimits>,
) => string | undefined;

const SUMMARIES: Partial<Record<AgentEvent["type"], Summarizer>> = {
  turn_start: (e, s) => s.dim(`── turn ${(e as AgentEventOf<"turn_start">).turn} ──`),
  message: (e, _s, l) => {
    const text = messageText((e as AgentEventOf<"message">).message).trim();
    return text === "" ? undefined : `  assistant: ${excerpt(text, l.resultChars)}`;
  },
  tool_call_start: (e, s, l) => {
    const { call } = e as AgentEventOf<"tool_call_start">;
    return `  ${s.yellow("→")} ${s.bold(call.name)} ${s.dim(json(call.input, l.argsChars))}`;
  },
  tool_result: (e, s, l) => {
    const { name, content, isError } = (e as AgentEventOf<"tool_result">).result;
    const shown = excerpt(content, l.resultChars);
    return isError ? `  ${s.red("✗")} ${name}: ${s.red(shown)}` : `  ${s.green("←")} ${name}: ${shown}`;
  },
  tool_recovered: (e, s) =>
    s.yellow(`  ↻ ${(e as AgentEventOf<"tool_recovered">).name} was interrupted by a crash; recovered`),
  permission_decision: (e, s) => {
    const event = e as AgentEventOf<"permission_decision">;
    if (event.decision !== "deny" || event.by === "user") return undefined;
    const why = event.reason ? `: ${event.reason}` : event.ruleId ? ` (rule ${event.ruleId})` : "";
    return s.red(`  ✗ ${event.call.name} denied by ${event.by}${why}`);
  },
  approval_request: (e, s, l) => {
    const { call, reason } = e as AgentEventOf<"approval_request">;
    const why = reason ? ` — ${reason}` : "";
    return `  ${s.yellow("?")} approval needed for ${s.bold(call.name)} ${s.dim(json(call.input, l.argsChars))}${why} · call ${s.bold(call.id)}`;
  },
  approval_resolved: (e, s) => decisionLine(e as AgentEventOf<"approval_resolved">, s),
  input_request: (e, s) => questionLine(e as AgentEventOf<"input_request">, s),
  input_resolved: (e, s) => {
    const event = e as AgentEventOf<"input_resolved">;
    return `  ${s.green("✓")} ${event.id} answered: ${formatAnswer(event.answer)}`;
  },
  steer: (e, _s, l) => {
    const text = (e as AgentEventOf<"steer">).messages.map(messageText).join(" | ");
    return `  ↪ steered: ${excerpt(text, l.resultChars)}`;
  },
  compaction: (e, s) => {
    const event = e as AgentEventOf<"compaction">;
    return event.phase === "start"
      ? undefined
      : s.dim(`  · compaction (${event.kind}): ${event.before} → ${event.after} tokens`);
  },
  diagnostic: (e, s) => {
    const event = e as AgentEventOf<"diagnostic">;
    return event.level === "info" ? undefined : s.dim(`  · ${event.level} ${event.code}: ${event.message}`);
  },
  events_lost: (e, s) => {
    const { from, to } = e as AgentEventOf<"events_lost">;
    return s.yellow(`  ! events ${from}–${to - 1} can no longer be read (their history was deleted)`);
  },
  model_call_end: (e, s) => {
    const event = e as AgentEventOf<"model_call_end">;
    return event.error ? s.yellow(`  · model call failed (${event.model}): ${event.error}`) : undefined;
  },
  error: (e, s) => {
    const event = e as AgentEventOf<"error">;
    return s.red(`  ! ${event.fatal ? "fatal " : ""}error: ${event.error.message}`);
  },
  budget_exceeded: (e, s) => {
    return s.yellow(
      `  ! budget reached: ${describeOverrun(e as AgentEventOf<"budget_exceeded">)}; the run stops`,
    );
  },
  done: (e, s) => {
    const { reason, result } = e as AgentEventOf<"done">;
    return s.bold(`── done: ${reason} · tokens ${formatUsage(result.usage)} ──`);
  },
};

/**
 * One line for an event, or undefined for events not worth a line (deltas, timings, turn ends). Text streams
 * are rendered by {@link EventRenderer}; this is for everything else, and for `show`'s list of recent events.
 */
export function eventSummary(
  event: AgentEvent,
  style: TerminalStyle = terminalStyle(false),
  limits: SummaryLimits = {},
): string | undefined {
  const summarize = SUMMARIES[event.type];
  return summarize?.(event, style, {
    argsChars: limits.argsChars ?? 100,
    resultChars: limits.resultChars ?? 160,
  });
}
