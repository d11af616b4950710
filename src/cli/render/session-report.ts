import { describeOverrun } from "../../kernel/vocabulary/budget.js";
import { excerpt, formatUsage } from "../../terminal/event-printer.js";
import { terminalStyle, type TerminalStyle } from "../../terminal/terminal-style.js";
import type { DurableEvent } from "../../client/events/run-event-stream.js";
import { describeApprovers } from "../../plan/approver-rules.js";
import type { PendingApproval, PendingQuestion, SessionStatus } from "../../contract/session-status.js";
import type { McpServerUnavailable } from "../../contract/mcp-server-unavailable.js";
import { eventSummary } from "./event-summary.js";
import { formatDuration } from "./format-duration.js";
import { shellQuote } from "../../terminal/shell-quote.js";

/** What `show` needs besides the status. */
export interface SessionReportOptions {
  /** ms since the epoch, for "waiting 2m, times out in 23h 58m". */
  now: number;
  /** `lite-agent [--address …]`, for the commands that answer what waits. */
  commandPrefix: string;
  /** The last events (undefined: none were asked for), or why they could not be read. */
  events: DurableEvent[] | { unavailable: string } | undefined;
  style?: TerminalStyle;
  /** The worker build the session runs on (`<deployment>:<build id>, pinned`), when its workers are versioned. */
  build?: string;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function timing(requestedAt: number, expiresAt: number, now: number): string {
  const left = expiresAt - now;
  const expiry = left > 0 ? `times out in ${formatDuration(left)}` : "timing out now";
  return `waiting ${formatDuration(now - requestedAt)}, ${expiry}`;
}

function approvalLines(
  approval: PendingApproval,
  command: (verb: string, callId: string) => string,
  options: SessionReportOptions,
  style: TerminalStyle,
): string[] {
  const why = approval.reason ? ` — ${approval.reason}` : "";
  return [
    `  ${style.bold(approval.callId)}  ${approval.tool} ${style.dim(excerpt(JSON.stringify(approval.input) ?? "", 100))}${why}`,
    `      ${timing(approval.requestedAt, approval.expiresAt, options.now)} · run ${approval.runId}`,
    ...(approval.approvers ? [`      may be decided by: ${describeApprovers(approval.approvers)}`] : []),
    ...(approval.signing?.required ? ["      signed decisions only (lite-agent approve --key-file)"] : []),
    `      allow: ${command("approve", approval.callId)}`,
    `      deny:  ${command("deny", approval.callId)} --reason '…'`,
  ];
}

function questionLines(
  question: PendingQuestion,
  command: (verb: string, callId: string) => string,
  options: SessionReportOptions,
  style: TerminalStyle,
): string[] {
  const choices =
    question.options && question.options.length > 0
      ? ` [${question.options.join(", ")}]${question.multiSelect ? " (several)" : ""}`
      : "";
  const select =
    question.options && question.options.length > 0
      ? `   or: ${command("answer", question.callId)} --select ${shellQuote(question.options[0] ?? "")}`
      : "";
  return [
    `  ${style.bold(question.callId)}  ${question.question}${choices}`,
    `      ${timing(question.requestedAt, question.expiresAt, options.now)} · run ${question.runId}`,
    `      answer: ${command("answer", question.callId)} '<text>'${select}`,
  ];
}

/** `MCP      github unavailable (breaker open, retry in 4m, last error: timeout after 15 s: …)`. */
function mcpLine(entry: McpServerUnavailable, now: number): string {
  const left = entry.retryAt - now;
  const retry =
    entry.breaker === "open" && left > 0 ? `retry in ${formatDuration(left)}` : "retry at the next run";
  return `MCP      ${entry.server} unavailable (breaker ${entry.breaker.replace("_", "-")}, ${retry}, last error: ${entry.lastError})`;
}

function eventLines(events: SessionReportOptions["events"], style: TerminalStyle): string[] {
  if (events === undefined) return [];
  if (!Array.isArray(events)) return [`Recent events: unavailable (${events.unavailable})`];
  if (events.length === 0) return ["Recent events: none"];
  const lines = events.flatMap((event) => {
    const summary = eventSummary(event, style);
    return summary === undefined ? [] : [`  ${style.dim(`#${event.offset}`)} ${summary.trimStart()}`];
  });
  return [`Recent events (${lines.length}):`, ...lines];
}

/**
 * The report of `lite-agent show`: status, current run and turn, queue, usage, skipped skill files, every pending
 * approval and question with the exact command that answers it, signals that were rejected, and the last events.
 */
export function sessionReport(status: SessionStatus, options: SessionReportOptions): string {
  const style = options.style ?? terminalStyle(false);
  const command = (verb: string, callId: string) =>
    `${options.commandPrefix} ${verb} ${shellQuote(status.sessionId)} ${shellQuote(callId)}`;
  const run = status.currentRun ? `${status.currentRun.runId} · turn ${status.currentRun.turn}` : "none";
  const model = status.model ? ` · model ${status.model}` : "";
  const lines = [
    `Session  ${style.bold(status.sessionId)} · agent ${status.agent}${model}`,
    `Status   ${style.bold(status.status)}${status.failure ? ` · ${status.failure.message}` : ""}`,
    `Run      ${run}`,
    `Queued   ${status.queuedRuns.length === 0 ? "none" : `${plural(status.queuedRuns.length, "run")}: ${status.queuedRuns.join(", ")}`}`,
    `Usage    tokens ${formatUsage(status.usage)}${status.cost !== undefined ? ` · cost ${status.cost}` : ""} · ${plural(status.turns, "turn")} · ${plural(status.runsCompleted, "run")} completed · ${plural(status.messageCount, "message")}`,
  ];
  if (options.build) lines.splice(1, 0, `Build    ${options.build}`);
  if (status.budgetStop)
    lines.push(`Budget   run ${status.budgetStop.runId} stopped at ${describeOverrun(status.budgetStop)}`);
  if (status.forkedFrom) {
    const { sessionId, turn } = status.forkedFrom;
    lines.splice(1, 0, `Forked   from ${style.bold(sessionId)} at the end of turn ${turn}`);
  }
  if (status.skillDiagnostics?.length)
    lines.push(
      `Skipped skill files (${status.skillDiagnostics.length}):`,
      ...status.skillDiagnostics.map((entry) => `  ${entry.file}: ${entry.error}`),
    );
  for (const entry of status.mcpUnavailable ?? []) lines.push(mcpLine(entry, options.now));
  if (status.pendingApprovals.length > 0) {
    lines.push(
      `Pending approvals (${status.pendingApprovals.length}):`,
      ...status.pendingApprovals.flatMap((approval) => approvalLines(approval, command, options, style)),
    );
  }
  if (status.pendingQuestions.length > 0) {
    lines.push(
      `Pending questions (${status.pendingQuestions.length}):`,
      ...status.pendingQuestions.flatMap((question) => questionLines(question, command, options, style)),
    );
  }
  if (status.subagents?.length)
    lines.push(
      `Subagents (${status.subagents.length}):`,
      ...status.subagents.map((subagent) => `  ${style.bold(subagent.sessionId)} · agent ${subagent.agent}`),
    );
  if (status.backgroundTasks?.length)
    lines.push(
      `Background tasks (${status.backgroundTasks.length}):`,
      ...status.backgroundTasks.map(
        (task) => `  ${task.id} · ${task.label} · ${task.done ? "done" : "running"}`,
      ),
    );
  if (status.rejectedSignals.length > 0)
    lines.push(
      `Rejected signals (${status.rejectedSignals.length}):`,
      ...status.rejectedSignals.map((reason) => `  ${reason}`),
    );
  const decisions = status.recentDecisions ?? [];
  if (decisions.length > 0)
    lines.push(
      `Recent decisions (${decisions.length}):`,
      ...decisions.map(
        (d) =>
          `  ${d.decision === "allow" ? "allowed" : "denied"} ${d.tool} ${d.callId} by ${d.actor ?? "(no actor)"} at ${new Date(d.at).toISOString()} (${d.via}${d.signed === undefined ? "" : d.signed ? `, signed with key ${d.keyId}` : ", unsigned"})${d.reason ? ` — ${d.reason}` : ""}`,
      ),
    );
  const ignored = status.rejectedDecisions ?? [];
  if (ignored.length > 0)
    lines.push(
      `Ignored decision signals (${ignored.length}):`,
      ...ignored.map(
        (r) =>
          `  ${r.decision === "allow" ? "approve" : "deny"} ${r.tool ?? ""} ${r.callId} from ${r.actor ?? "(no actor)"}${r.keyId ? ` (key ${r.keyId})` : ""} at ${new Date(r.at).toISOString()}: ${r.why}`,
      ),
    );
  lines.push(...eventLines(options.events, style));
  return `${lines.join("\n")}\n`;
}
