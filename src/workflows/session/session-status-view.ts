import type { BackgroundTasks } from "../../kernel/background/types.js";
import { usageCost, type ModelPrice } from "../../kernel/vocabulary/budget.js";
import type { Message } from "../../kernel/vocabulary/messages.js";
import { addUsage } from "../../kernel/vocabulary/model.js";
import type { SkillDiagnostic } from "../../contract/agent-plan.js";
import type { McpServerUnavailable } from "../../contract/mcp-server-unavailable.js";
import type { ActiveSubagent, SessionStatus } from "../../contract/session-status.js";
import type { SessionInput } from "../../contract/session-input.js";
import type { ActiveRun } from "../run/active-run.js";
import type { ApprovalBoard } from "../approvals/approval-board.js";
import type { RunQueue } from "./run-queue.js";
import type { RunRecord } from "./run-record.js";
import type { SessionLifecycle } from "./session-lifecycle.js";
import type { SignalRejections } from "./signal-rejections.js";
import { MAX_LISTED_QUEUED_RUNS } from "./status-bounds.js";

/** What the status reads of the session: each part only through what it shows. */
export interface StatusSources {
  readonly sessionId: string;
  readonly agent: string;
  readonly input: Pick<SessionInput, "forkedFrom" | "model">;
  readonly messages: Message[];
  readonly current: Pick<ActiveRun, "runId" | "offset" | "turn" | "usage"> | undefined;
  readonly queue: Pick<RunQueue, "ids">;
  readonly record: Pick<RunRecord, "runsCompleted" | "turns" | "usage">;
  readonly lifecycle: Pick<SessionLifecycle, "closed" | "failure" | "budgetStop">;
  readonly board: Pick<
    ApprovalBoard,
    "pendingApprovals" | "pendingQuestions" | "recentDecisions" | "rejectedDecisions"
  >;
  readonly stream: { readonly end: number };
  readonly rejections: Pick<SignalRejections, "list">;
  readonly subagents: ReadonlyMap<string, ActiveSubagent>;
  readonly price: ModelPrice | undefined;
  readonly detachedTasks: Pick<BackgroundTasks, "listDetached"> | undefined;
  readonly skillDiagnostics?: readonly SkillDiagnostic[] | undefined;
  readonly mcpUnavailable?: readonly McpServerUnavailable[] | undefined;
}

/** The session's status as the `sessionStatus` query, the search attributes and the UI's details show it. */
export function sessionStatus(session: StatusSources): SessionStatus {
  const { board, current, lifecycle, record } = session;
  const pendingApprovals = board.pendingApprovals();
  const pendingQuestions = board.pendingQuestions();
  const status: SessionStatus = {
    sessionId: session.sessionId,
    agent: session.agent,
    status: runStatus(session, pendingApprovals.length, pendingQuestions.length),
    pendingApprovals,
    pendingQuestions,
    queuedRuns: session.queue.ids(MAX_LISTED_QUEUED_RUNS),
    runsCompleted: record.runsCompleted,
    turns: record.turns + (current?.turn ?? 0),
    usage: current ? addUsage(record.usage, current.usage) : record.usage,
    messageCount: session.messages.length,
    offset: session.stream.end,
    rejectedSignals: [...session.rejections.list],
    recentDecisions: board.recentDecisions(),
    rejectedDecisions: board.rejectedDecisions(),
  };
  if (current) status.currentRun = { runId: current.runId, turn: current.turn, offset: current.offset };
  if (session.input.forkedFrom) status.forkedFrom = session.input.forkedFrom;
  if (session.input.model) status.model = session.input.model;
  if (session.subagents.size > 0) status.subagents = [...session.subagents.values()];
  if (session.price) status.cost = usageCost(status.usage, session.price);
  const background = session.detachedTasks?.listDetached() ?? [];
  if (background.length > 0) status.backgroundTasks = background;
  const { failure, budgetStop } = lifecycle;
  if (failure) status.failure = { runId: failure.runId, message: failure.message };
  if (budgetStop) status.budgetStop = { ...budgetStop };
  if (session.skillDiagnostics?.length) status.skillDiagnostics = [...session.skillDiagnostics];
  if (session.mcpUnavailable?.length) status.mcpUnavailable = [...session.mcpUnavailable];
  return status;
}

function runStatus(session: StatusSources, approvals: number, questions: number): SessionStatus["status"] {
  const { failure, closed } = session.lifecycle;
  if (approvals > 0) return "awaiting_approval";
  if (questions > 0) return "awaiting_input";
  if (session.current) return "running";
  if (failure?.terminal) return "failed";
  if (closed) return "closed";
  return failure ? "failed" : "idle";
}
