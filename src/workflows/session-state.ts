import { ApplicationFailure, CancellationScope, uuid4 } from "@temporalio/workflow";
import type { BackgroundTasks } from "../kernel/background/types.js";
import { usageCost, type ModelPrice } from "../kernel/budget.js";
import { createBackgroundTasks } from "../kernel/background/background-tasks.js";
import { NEVER_ABORTED } from "../kernel/ports.js";
import type { AgentPlan } from "../common/agent-plan.js";
import { workflowPorts } from "./workflow-ports.js";
import type { ActiveRun } from "./active-run.js";
import type { AgentEvent, RunResult } from "../kernel/events.js";
import type { Message } from "../kernel/messages.js";
import { ZERO_USAGE, addUsage, type ModelRequest, type Usage } from "../kernel/model.js";
import type {
  CancelRunRequest,
  AnswerQuestionRequest,
  DecideToolCallRequest,
  InterruptRequest,
  StartRunRequest,
} from "../contract/requests.js";
import type {
  ActiveSubagent,
  SessionFailure,
  BudgetStop,
  SessionStatus,
} from "../contract/session-status.js";
import type { RunSummary } from "../contract/run-summary.js";
import type { TranscriptPageRequest } from "../contract/transcript-page.js";
import { TranscriptLedger } from "../common/transcript-ledger.js";
import { transcriptPage } from "./transcript-page.js";
import { reportTelemetry } from "./telemetry-report.js";
import { checkSessionInput, checkStartRun, checkSteer } from "./payload-checks.js";
import { registerSessionHandlers } from "./session-handlers.js";
import { SUBAGENT_RUN_ID, type SessionInput } from "../contract/session-input.js";
import type { CarriedDecisions, CarriedState, QueuedRun, SuspendedRun } from "../contract/carried-state.js";
import { SteerQueue } from "./steer-queue.js";
import { SessionStream, type LiveOutputMark } from "./session-stream.js";
import { ApprovalBoard } from "./approval-board.js";
import { SessionVisibility } from "./session-visibility.js";
import { MAX_FAILURE_CHARS, MAX_LISTED_QUEUED_RUNS, MAX_REJECTION_CHARS, clip } from "./status-bounds.js";

const KEPT_SUMMARIES = 50;
const KEPT_REJECTIONS = 10;

export { ActiveRun } from "./active-run.js";

/**
 * Everything a session workflow holds between runs, and the commands its handlers call (wired in
 * session-handlers.ts). Commands only queue or flag; the workflow loop does the work. The stream (and what it
 * keeps) lives in SessionStream, the running run's cancellation in ActiveRun.
 */
export class SessionState {
  readonly sessionId: string;
  readonly agent: string;
  messages: Message[];
  readonly queue: QueuedRun[];
  readonly steers: SteerQueue;
  readonly requests = new Map<string, ModelRequest>();
  readonly stream: SessionStream;
  readonly board: ApprovalBoard;
  /** The session's archived transcript segments and how much of the conversation they (or compaction) cover. */
  readonly transcript: TranscriptLedger;
  readonly visibility: SessionVisibility;
  current: ActiveRun | undefined;
  /** The workflow's root scope: detached background work runs under it, outside any run's scope. */
  readonly rootScope = CancellationScope.current();
  /** The session's detached background tasks, which outlive the run that started them (made at the first run). */
  detachedTasks: BackgroundTasks | undefined;
  /** The price of the agent's model, when its budget names one: the status shows the session's cost. */
  price: ModelPrice | undefined;
  /** The subagent sessions (child workflows) running for the current run, by session id. */
  readonly subagents = new Map<string, ActiveSubagent>();
  closed = false;
  /** Set by the `wake` signal: the idle session looks then whether another build became its target. */
  woken = false;
  runsCompleted: number;
  runsThisExecution = 0;
  turns: number;
  usage: Usage;
  private readonly summaries: RunSummary[];
  private readonly rejectedSignals: string[] = [];
  /** The last fatal error of a run (its outcome is recorded when the run finishes). */
  private lastError: SessionFailure | undefined;
  /** The last run's budget stop, from its `budget_exceeded` event (shown until a run ends otherwise). */
  private budgetStop: BudgetStop | undefined;
  /** Why the last run failed; cleared by the next run that ends otherwise. `terminal`: the session cannot run. */
  private failure: SessionFailure | undefined;

  constructor(readonly input: SessionInput) {
    // A bad start input fails the workflow with the reason, instead of every workflow task after it.
    const problem = checkSessionInput(input);
    if (problem)
      throw ApplicationFailure.nonRetryable(`session input rejected: ${problem}`, "LiteAgent.BadInput");
    const carried = input.carried;
    this.sessionId = input.sessionId;
    this.agent = input.agent;
    this.messages = carried?.messages ?? input.seed ?? [];
    this.queue = carried?.queue ?? [];
    this.steers = new SteerQueue(carried?.seenSignalIds);
    if (carried) this.steers.restore(carried.pendingSteers);
    this.runsCompleted = carried?.runsCompleted ?? 0;
    this.turns = carried?.turns ?? 0;
    this.usage = carried?.usage ?? ZERO_USAGE;
    this.summaries = carried?.summaries ?? [];
    this.failure = carried?.failure;
    this.transcript = new TranscriptLedger(carried?.transcript);
    this.board = new ApprovalBoard(carried?.decisions);
    this.stream = new SessionStream(carried, () => this.closed);
    this.visibility = new SessionVisibility(input.searchAttributes !== false);
    if (input.task && !carried)
      this.queue.push({ runId: SUBAGENT_RUN_ID, input: input.task.input, offset: 0 });
    registerSessionHandlers(this);
  }

  /** Publishes a run's event to the session stream. */
  publish(runId: string, event: AgentEvent, modelCall?: number, liveOutput: LiveOutputMark = true): void {
    if (event.type === "error" && event.fatal) this.noteFatalError(runId, event.error.message);
    if (event.type === "budget_exceeded")
      this.budgetStop = { runId, limit: event.limit, used: event.used, max: event.max };
    this.stream.publish(runId, event, modelCall, liveOutput);
    reportTelemetry(this.agent, runId, event);
  }

  /** The session's registry of detached tasks, made at the first run with the agent's limits. */
  detachedTasksFor(plan: AgentPlan): BackgroundTasks {
    this.detachedTasks ??= createBackgroundTasks({
      // A detached task's events reach the run going on when they happen; between runs the next run's note says it.
      emit: (event) => {
        if (this.current) this.publish(this.current.runId, event);
      },
      signal: NEVER_ABORTED,
      ports: workflowPorts,
      ...(plan.backgroundLimits ? { limits: plan.backgroundLimits } : {}),
    });
    return this.detachedTasks;
  }

  /** Usage of detached background work (a subagent group that outlived its run): the session's, no run's. */
  addBackgroundUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
    this.refreshVisibility();
  }

  /** The summary of the newest finished run. */
  lastSummary(): RunSummary | undefined {
    return this.summaries.at(-1);
  }

  /** Records a finished run. */
  finishRun(runId: string, result: RunResult, turns: number): void {
    this.runsCompleted++;
    this.runsThisExecution++;
    this.turns += turns;
    this.usage = addUsage(this.usage, result.usage);
    this.summaries.push({ runId, stopReason: result.stopReason, text: result.text, usage: result.usage });
    if (this.summaries.length > KEPT_SUMMARIES) this.summaries.shift();
    this.recordOutcome(runId, result.stopReason);
  }

  private noteFatalError(runId: string, message: string): void {
    const failure: SessionFailure = { runId, message: clip(message, MAX_FAILURE_CHARS) };
    // The session's agent is fixed: when no worker knows it, no run of this session can ever work.
    if (message.startsWith(`unknown agent '${this.agent}'`)) failure.terminal = true;
    this.lastError = failure;
  }

  /**
   * A run that ended with an error leaves the session `failed` (with why) until a later run ends otherwise. An
   * unknown agent ends the session: it closes, and stays `failed`.
   */
  private recordOutcome(runId: string, stopReason: string): void {
    if (stopReason !== "budget" || this.budgetStop?.runId !== runId) this.budgetStop = undefined;
    if (stopReason !== "error") {
      this.failure = undefined;
      return;
    }
    const noted = this.lastError?.runId === runId ? this.lastError : undefined;
    this.failure = noted ?? { runId, message: "the run ended with an error" };
    if (this.failure.terminal) this.closed = true;
    else delete this.failure.terminal;
  }

  /** The state to carry into the next execution. */
  carry(suspended?: SuspendedRun): CarriedState {
    return {
      messages: this.messages,
      queue: this.queue,
      seenSignalIds: this.steers.seenIds(),
      pendingSteers: this.steers.queued(),
      runsCompleted: this.runsCompleted,
      turns: this.turns,
      usage: this.usage,
      summaries: this.summaries,
      ...this.stream.carry(suspended?.run.offset),
      ...(suspended ? { activeRun: suspended } : {}),
      ...(this.failure ? { failure: this.failure } : {}),
      ...(this.transcript.compactions > 0 ? { transcript: this.transcript.state() } : {}),
      ...optionalDecisions(this.board.carry()),
    };
  }

  /** Brings search attributes and the UI's current details up to date. */
  refreshVisibility(): void {
    this.visibility.refresh(this.status());
  }

  status(): SessionStatus {
    const pendingApprovals = this.board.pendingApprovals();
    const pendingQuestions = this.board.pendingQuestions();
    const status: SessionStatus = {
      sessionId: this.sessionId,
      agent: this.agent,
      status: this.runStatus(pendingApprovals.length, pendingQuestions.length),
      pendingApprovals,
      pendingQuestions,
      queuedRuns: this.queue.slice(0, MAX_LISTED_QUEUED_RUNS).map((run) => run.runId),
      runsCompleted: this.runsCompleted,
      turns: this.turns + (this.current?.turn ?? 0),
      usage: this.current ? addUsage(this.usage, this.current.usage) : this.usage,
      messageCount: this.messages.length,
      offset: this.stream.end,
      rejectedSignals: [...this.rejectedSignals],
      recentDecisions: this.board.recentDecisions(),
      rejectedDecisions: this.board.rejectedDecisions(),
    };
    if (this.current) {
      const { runId, offset, turn } = this.current;
      status.currentRun = { runId, turn, offset };
    }
    if (this.input.forkedFrom) status.forkedFrom = this.input.forkedFrom;
    if (this.input.model) status.model = this.input.model;
    if (this.subagents.size > 0) status.subagents = [...this.subagents.values()];
    if (this.price) status.cost = usageCost(status.usage, this.price);
    const background = this.detachedTasks?.listDetached() ?? [];
    if (background.length > 0) status.backgroundTasks = background;
    if (this.failure) status.failure = { runId: this.failure.runId, message: this.failure.message };
    if (this.budgetStop) status.budgetStop = { ...this.budgetStop };
    return status;
  }

  private runStatus(approvals: number, questions: number): SessionStatus["status"] {
    if (approvals > 0) return "awaiting_approval";
    if (questions > 0) return "awaiting_input";
    if (this.current) return "running";
    if (this.failure?.terminal) return "failed";
    if (this.closed) return "closed";
    return this.failure ? "failed" : "idle";
  }

  /** Whether the runs of this execution list and call the MCP tools of an agent that has servers. */
  usesMcpTools(plan: AgentPlan): boolean {
    return (plan.mcpServers?.length ?? 0) > 0;
  }

  /** Whether the run is queued or running in this execution (or carried into it by a mid-run continue-as-new). */
  hasPendingRun(runId: string): boolean {
    if (this.current?.runId === runId || this.input.carried?.activeRun?.run.runId === runId) return true;
    return this.queue.some((run) => run.runId === runId);
  }

  /** The summary of a finished run this session still remembers. */
  runSummary(runId: string): RunSummary | undefined {
    return this.summaries.find((summary) => summary.runId === runId);
  }

  /** A page of the transcript; the run in progress shows its conversation as the kernel holds it. */
  transcriptPageOf(request: TranscriptPageRequest | undefined) {
    const from = typeof request === "object" && request !== null ? request.from : undefined;
    const conversation = this.current?.live ?? this.messages;
    return transcriptPage(this.transcript, conversation, typeof from === "number" ? from : 0);
  }

  decide(
    request: DecideToolCallRequest,
    via: "update" | "signal",
  ): { callId: string; decision: "allow" | "deny" } {
    this.board.decide(request, workflowPorts.now(), via);
    return { callId: request.callId, decision: request.decision };
  }

  answer(request: AnswerQuestionRequest): { callId: string } {
    this.board.answer(request);
    return { callId: request.callId };
  }

  interrupt(request: InterruptRequest): boolean {
    if (typeof request.content === "string" && request.content.trim() !== "") {
      this.steers.add("steer", {
        id: request.id ?? `interrupt-${this.steers.seenIds().length}`,
        content: request.content,
      });
    }
    return this.steers.interrupt();
  }

  validateStartRun(request: StartRunRequest): void {
    this.rejectIfClosed();
    const problem = checkStartRun(request);
    if (problem) throw new TypeError(problem);
    if (request.agent !== this.agent) {
      throw new TypeError(`session '${this.sessionId}' runs agent '${this.agent}', not '${request.agent}'`);
    }
  }

  startRun(request: StartRunRequest): { runId: string; offset: number } {
    const runId = request.runId ?? uuid4();
    const known = this.queue.find((run) => run.runId === runId);
    if (known) return { runId, offset: known.offset };
    if (this.current?.runId === runId || this.summaries.some((summary) => summary.runId === runId)) {
      return { runId, offset: 0 };
    }
    const offset = this.stream.end;
    const queued: QueuedRun = { runId, input: request.input, offset };
    if (request.images) queued.images = request.images;
    this.queue.push(queued);
    return { runId, offset };
  }

  onSteerSignal(kind: "steer" | "followUp", request: unknown): void {
    const problem = this.closed ? "the session is closed" : checkSteer(request);
    if (problem) return this.reject(`${kind} signal ignored: ${problem}`);
    this.steers.add(kind, request as Parameters<SteerQueue["add"]>[1]);
  }

  /** Cancels the running run and/or queued runs; returns the ids cancelled. */
  cancel(request: CancelRunRequest): string[] {
    const cancelled: string[] = [];
    const current = this.current;
    if (current && (request.runId === undefined || request.runId === current.runId)) {
      this.settleWaits(current.runId, request.reason);
      current.cancel(request.reason ?? "cancelled");
      cancelled.push(current.runId);
    }
    for (let index = this.queue.length - 1; index >= 0; index--) {
      const queued = this.queue[index]!;
      if (request.runId !== queued.runId) continue;
      this.queue.splice(index, 1);
      this.publishCancelledQueuedRun(queued.runId);
      cancelled.push(queued.runId);
    }
    return cancelled;
  }

  /**
   * A cancelled run settles what it waited on at once: its pending approvals and questions end `cancelled` (a
   * later decision is refused with that reason) and the status leaves `awaiting_approval`. The gate reports each
   * approval as `approval_resolved` (deny); a question, which has no such event, is reported here.
   */
  private settleWaits(runId: string, reason: string | undefined): void {
    const how = reason && reason !== "cancelled" ? `cancelled: ${reason}` : "cancelled";
    for (const question of this.board.settleRun(runId, how).questions) {
      const message = `question '${question.callId}' was not answered: the run was ${how}`;
      this.publish(runId, { type: "diagnostic", level: "info", code: "question_cancelled", message });
    }
  }

  private publishCancelledQueuedRun(runId: string): void {
    const result: RunResult = { messages: [], text: "", usage: ZERO_USAGE, stopReason: "aborted" };
    this.publish(runId, { type: "done", reason: "aborted", result });
    this.summaries.push({ runId, stopReason: "aborted", text: "", usage: ZERO_USAGE });
  }

  /** Closes the session: queued runs still finish; the status says `closed` at once when nothing runs. */
  close(): void {
    this.closed = true;
    this.refreshVisibility();
  }

  rejectIfClosed(): void {
    if (!this.closed) return;
    const why = this.failure?.terminal ? `: its run failed (${this.failure.message})` : "";
    throw new TypeError(`session '${this.sessionId}' is closed${why}`);
  }

  reject(message: string, code = "invalid_signal"): void {
    message = clip(message, MAX_REJECTION_CHARS);
    this.rejectedSignals.push(message);
    if (this.rejectedSignals.length > KEPT_REJECTIONS) this.rejectedSignals.shift();
    this.stream.publish(this.current?.runId ?? "", {
      type: "diagnostic",
      level: "warning",
      code,
      message,
    });
  }
}

function optionalDecisions(decisions: CarriedDecisions | undefined): { decisions?: CarriedDecisions } {
  return decisions ? { decisions } : {};
}
