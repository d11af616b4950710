import { describeOverrun } from "../../kernel/vocabulary/budget.js";
import { describeApprovers } from "../../plan/approver-rules.js";
import { describeMcpUnavailable } from "../../plan/mcp-messages.js";
import type {
  DecisionRecord,
  PendingApproval,
  PendingQuestion,
  RejectedDecision,
  SessionStatus,
} from "../../contract/session-status.js";

const STATUS_LABEL: Record<SessionStatus["status"], string> = {
  idle: "idle",
  running: "running",
  awaiting_approval: "⏸ awaiting approval",
  awaiting_input: "⏸ awaiting an answer",
  failed: "✖ failed",
  closed: "closed",
};

/** Workflow time as an ISO string (formatting a recorded timestamp is deterministic). */
function iso(ms: number): string {
  return new Date(ms).toISOString(); // eslint-disable-line no-restricted-syntax -- formats a given timestamp
}

function short(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function approvalLines(sessionId: string, approval: PendingApproval): string[] {
  // With approvers, the signal must name one of them (the placeholder is refused until replaced).
  const input = JSON.stringify(
    approval.approvers ? { callId: approval.callId, actor: "<your name>" } : { callId: approval.callId },
  );
  const who = approval.approvers ? ` · may be decided by ${describeApprovers(approval.approvers)}` : "";
  const signed = approval.signing?.required
    ? " · **signed decisions only** (an unsigned signal is ignored: `lite-agent approve --key-file`)"
    : "";
  // One top-level line per action: the UI's markdown styling flattens nested lists.
  return [
    `- **${approval.tool}** \`${short(approval.input)}\`${approval.reason ? ` — ${approval.reason}` : ""} · call \`${approval.callId}\`, waiting since ${iso(approval.requestedAt)}, times out ${iso(approval.expiresAt)}${who}${signed}`,
    `- approve \`${approval.callId}\`: signal \`approve\` with \`${input}\` · \`temporal workflow signal --workflow-id ${sessionId} --name approve --input '${input}'\` · \`lite-agent approve ${sessionId} ${approval.callId}\``,
    `- deny \`${approval.callId}\`: signal \`deny\` with \`${input}\` · \`temporal workflow signal --workflow-id ${sessionId} --name deny --input '${input}'\` · \`lite-agent deny ${sessionId} ${approval.callId}\``,
  ];
}

function questionLines(sessionId: string, question: PendingQuestion): string[] {
  const input = JSON.stringify({ callId: question.callId, text: "…" });
  return [
    `- ${question.question}${question.options ? ` (options: ${question.options.join(", ")})` : ""} · call \`${question.callId}\`, times out ${iso(question.expiresAt)}`,
    `- answer \`${question.callId}\`: signal \`answer\` with \`${input}\` · \`lite-agent answer ${sessionId} ${question.callId} <text>\``,
  ];
}

function decisionLine(record: DecisionRecord): string {
  const verb = record.decision === "allow" ? "allowed" : "denied";
  return `- ${verb} **${record.tool}** call \`${record.callId}\` by ${record.actor ?? "(no actor)"} at ${iso(record.at)} (${record.via}${signature(record)})${record.reason ? ` — ${record.reason}` : ""}`;
}

/** `, signed with key k` or `, unsigned`; nothing for a record kept before signatures. */
function signature(record: DecisionRecord): string {
  if (record.signed === undefined) return "";
  return record.signed ? `, signed with key ${record.keyId}` : ", unsigned";
}

function rejectedLine(rejected: RejectedDecision): string {
  const what = rejected.decision === "allow" ? "approve" : "deny";
  return `- ignored ${what} of ${rejected.tool ? `**${rejected.tool}** ` : ""}call \`${rejected.callId}\` from ${rejected.actor ?? "(no actor)"}${rejected.keyId ? ` (key ${rejected.keyId})` : ""} at ${iso(rejected.at)}: ${rejected.why}`;
}

/** The session's current details, in markdown, as the Temporal UI shows them. */
export function currentDetails(status: SessionStatus): string {
  const tokens = status.usage.inputTokens + status.usage.outputTokens;
  const run = status.currentRun
    ? `run \`${status.currentRun.runId}\`, turn ${status.currentRun.turn}`
    : "no run in progress";
  const lines = [
    `**Agent** ${status.agent} · **Status** ${STATUS_LABEL[status.status]} · ${run}`,
    `**Runs** ${status.runsCompleted} completed, ${status.queuedRuns.length} queued · **Turns** ${status.turns} · **Tokens** ${tokens}${status.cost === undefined ? "" : ` · **Cost** ${status.cost}`}`,
  ];
  if (status.budgetStop) {
    const stop = status.budgetStop;
    lines.push("", `**Last run stopped at its budget** (run \`${stop.runId}\`): ${describeOverrun(stop)}`);
  }
  if (status.failure) {
    lines.push("", `**Last run failed** (run \`${status.failure.runId}\`): ${status.failure.message}`);
  }
  const skipped = status.skillDiagnostics ?? [];
  if (skipped.length > 0) {
    lines.push("", `### Skipped skill files (${skipped.length})`);
    for (const entry of skipped) lines.push(`- \`${entry.file}\`: ${entry.error}`);
  }
  const mcp = status.mcpUnavailable ?? [];
  if (mcp.length > 0) {
    lines.push("", `### MCP servers unavailable to the last run (${mcp.length})`);
    for (const entry of mcp) lines.push(`- **${entry.server}** ${describeMcpUnavailable(entry)}`);
  }
  if (status.pendingApprovals.length > 0) {
    lines.push("", `### Pending approvals (${status.pendingApprovals.length})`);
    for (const approval of status.pendingApprovals) lines.push(...approvalLines(status.sessionId, approval));
  }
  if (status.pendingQuestions.length > 0) {
    lines.push("", `### Pending questions (${status.pendingQuestions.length})`);
    for (const question of status.pendingQuestions) lines.push(...questionLines(status.sessionId, question));
  }
  const decisions = status.recentDecisions ?? [];
  if (decisions.length > 0) {
    lines.push("", `### Recent decisions (${decisions.length})`);
    for (const record of decisions) lines.push(decisionLine(record));
  }
  const rejected = status.rejectedDecisions ?? [];
  if (rejected.length > 0) {
    lines.push("", `### Ignored decision signals (${rejected.length})`);
    for (const entry of rejected) lines.push(rejectedLine(entry));
  }
  return lines.join("\n");
}
