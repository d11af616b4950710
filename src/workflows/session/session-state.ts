import { ApplicationFailure, CancellationScope } from "@temporalio/workflow";
import type { BackgroundTasks } from "../../kernel/background/types.js";
import type { ModelPrice } from "../../kernel/vocabulary/budget.js";
import { createBackgroundTasks } from "../../kernel/background/background-tasks.js";
import { NEVER_ABORTED } from "../../kernel/vocabulary/ports.js";
import type { AgentPlan, SkillDiagnostic } from "../../contract/agent-plan.js";
import type { McpServerUnavailable } from "../../contract/mcp-server-unavailable.js";
import { workflowPorts } from "../run/workflow-ports.js";
import type { ActiveRun } from "../run/active-run.js";
import type { AgentEvent, RunResult } from "../../kernel/vocabulary/events.js";
import type { Message } from "../../kernel/vocabulary/messages.js";
import type { ModelRequest, Usage } from "../../kernel/vocabulary/model.js";
import type { StartRunRequest, StartRunResult } from "../../contract/requests.js";
import type { ActiveSubagent, SessionStatus } from "../../contract/session-status.js";
import type { RunSummary } from "../../contract/run-summary.js";
import { SUBAGENT_RUN_ID, type SessionInput } from "../../contract/session-input.js";
import type { CarriedDecisions, CarriedState, SuspendedRun } from "../../contract/carried-state.js";
import { TranscriptLedger } from "../transcript/transcript-ledger.js";
import { reportTelemetry } from "../stream/telemetry-report.js";
import { checkSessionInput, checkStartRun } from "../admission/payload-checks.js";
import { SteerQueue } from "./steer-queue.js";
import { SessionStream, type LiveOutputMark } from "../stream/session-stream.js";
import { ApprovalBoard } from "../approvals/approval-board.js";
import { SessionVisibility } from "./session-visibility.js";
import { RunQueue } from "./run-queue.js";
import { RunRecord } from "./run-record.js";
import { SessionLifecycle } from "./session-lifecycle.js";
import { SignalRejections } from "./signal-rejections.js";
import { sessionStatus } from "./session-status-view.js";

export { ActiveRun } from "../run/active-run.js";

/**
 * What a session workflow holds, as parts by who reads them: the run queue, the record of finished runs, the
 * lifecycle, the approvals board, the steers, the stream. Commands only queue or flag; the workflow loop does
 * the work. The handlers (session-handlers.ts) see it through a narrow interface.
 */
export class SessionState {
  readonly sessionId: string;
  readonly agent: string;
  messages: Message[];
  readonly queue: RunQueue;
  readonly record: RunRecord;
  readonly lifecycle: SessionLifecycle;
  readonly steers: SteerQueue;
  readonly requests = new Map<string, ModelRequest>();
  readonly stream: SessionStream;
  readonly board: ApprovalBoard;
  /** The session's archived transcript segments and how much of the conversation they (or compaction) cover. */
  readonly transcript: TranscriptLedger;
  readonly visibility: SessionVisibility;
  readonly rejections: SignalRejections;
  current: ActiveRun | undefined;
  /** The workflow's root scope: detached background work runs under it, outside any run's scope. */
  readonly rootScope = CancellationScope.current();
  /** The session's detached background tasks, which outlive the run that started them (made at the first run). */
  detachedTasks: BackgroundTasks | undefined;
  /** The price of the agent's model, when its budget names one: the status shows the session's cost. */
  price: ModelPrice | undefined;
  /** The subagent sessions (child workflows) running for the current run, by session id. */
  readonly subagents = new Map<string, ActiveSubagent>();
  /** The skill files the last resolved plan left out (from the resolveAgent activity's result); none: undefined. */
  skillDiagnostics: SkillDiagnostic[] | undefined;
  /** The MCP servers the last run went without (from its listMcpTools results); none: undefined. */
  mcpUnavailable: McpServerUnavailable[] | undefined;
  /** Set by the `wake` signal: the idle session looks then whether another build became its target. */
  woken = false;

  constructor(readonly input: SessionInput) {
    // A bad start input fails the workflow with the reason, instead of every workflow task after it.
    const problem = checkSessionInput(input);
    if (problem)
      throw ApplicationFailure.nonRetryable(`session input rejected: ${problem}`, "LiteAgent.BadInput");
    const carried = input.carried;
    this.sessionId = input.sessionId;
    this.agent = input.agent;
    this.messages = carried?.messages ?? input.seed ?? [];
    this.queue = new RunQueue(carried?.queue ?? []);
    this.steers = new SteerQueue(carried?.seenSignalIds);
    if (carried) this.steers.restore(carried.pendingSteers);
    this.record = new RunRecord(carried);
    this.lifecycle = new SessionLifecycle(this.agent, carried?.failure);
    this.transcript = new TranscriptLedger(carried?.transcript);
    // Signed decisions name the session id, the workflow id, as the input (in the history) says: a replay under
    // another workflow id (`lite-agent replay`) checks them alike.
    this.board = new ApprovalBoard(carried?.decisions, input.sessionId);
    this.stream = new SessionStream(carried, () => this.lifecycle.closed);
    this.visibility = new SessionVisibility(input.searchAttributes !== false);
    this.skillDiagnostics = carried?.skillDiagnostics;
    this.mcpUnavailable = carried?.mcpUnavailable;
    this.rejections = new SignalRejections((event) => this.stream.publish(this.current?.runId ?? "", event));
    if (input.task && !carried)
      this.queue.push({ runId: SUBAGENT_RUN_ID, input: input.task.input, offset: 0 });
  }

  /** The session's usage: the finished runs' and detached work's (the running run's is its own until it ends). */
  get usage(): Usage {
    return this.record.usage;
  }

  /** Publishes a run's event to the session stream. */
  publish(runId: string, event: AgentEvent, modelCall?: number, liveOutput: LiveOutputMark = true): void {
    this.lifecycle.observe(runId, event);
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
    this.record.addUsage(usage);
    this.refreshVisibility();
  }

  /** Records a finished run, and what its end says of the session (failed, closed, at a budget stop). */
  finishRun(runId: string, result: RunResult, turns: number): void {
    this.record.finish(runId, result, turns);
    this.lifecycle.settle(runId, result.stopReason);
  }

  /** The state to carry into the next execution. */
  carry(suspended?: SuspendedRun): CarriedState {
    const failure = this.lifecycle.failure;
    return {
      messages: this.messages,
      queue: this.queue.carry(),
      seenSignalIds: this.steers.seenIds(),
      pendingSteers: this.steers.queued(),
      ...this.record.carry(),
      ...this.stream.carry(suspended?.run.offset),
      ...(suspended ? { activeRun: suspended } : {}),
      ...(failure ? { failure } : {}),
      ...(this.transcript.compactions > 0 ? { transcript: this.transcript.state() } : {}),
      ...optionalDecisions(this.board.carry()),
      ...(this.skillDiagnostics ? { skillDiagnostics: this.skillDiagnostics } : {}),
      ...(this.mcpUnavailable ? { mcpUnavailable: this.mcpUnavailable } : {}),
    };
  }

  /** Brings search attributes and the UI's current details up to date. */
  refreshVisibility(): void {
    this.visibility.refresh(this.status());
  }

  status(): SessionStatus {
    return sessionStatus(this);
  }

  /** Whether the runs of this execution list and call the MCP tools of an agent that has servers. */
  usesMcpTools(plan: AgentPlan): boolean {
    return (plan.mcpServers?.length ?? 0) > 0;
  }

  /** Whether the run is queued or running in this execution (or carried into it by a mid-run continue-as-new). */
  hasPendingRun(runId: string): boolean {
    if (this.current?.runId === runId || this.input.carried?.activeRun?.run.runId === runId) return true;
    return this.queue.has(runId);
  }

  /** The summary of a finished run this session still remembers. */
  runSummary(runId: string): RunSummary | undefined {
    return this.record.summary(runId);
  }

  validateStartRun(request: StartRunRequest): void {
    this.rejectIfClosed();
    const problem = checkStartRun(request);
    if (problem) throw new TypeError(problem);
    if (request.agent !== this.agent) {
      throw new TypeError(`session '${this.sessionId}' runs agent '${this.agent}', not '${request.agent}'`);
    }
  }

  startRun(request: StartRunRequest): StartRunResult {
    const started = (runId: string) => this.current?.runId === runId || !!this.record.summary(runId);
    return this.queue.start(request, this.stream.end, started);
  }

  /** Closes the session: queued runs still finish; the status says `closed` at once when nothing runs. */
  close(): void {
    this.lifecycle.closed = true;
    this.refreshVisibility();
  }

  rejectIfClosed(): void {
    this.lifecycle.rejectIfClosed(this.sessionId);
  }

  reject(message: string, code?: string): void {
    this.rejections.reject(message, code);
  }
}

function optionalDecisions(decisions: CarriedDecisions | undefined): { decisions?: CarriedDecisions } {
  return decisions ? { decisions } : {};
}
