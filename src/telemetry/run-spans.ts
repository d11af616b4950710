import { ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span } from "@opentelemetry/api";
import type { WorkflowInfo } from "@temporalio/workflow";
import type { TelemetryEvent } from "../wire/telemetry-event.js";
import type { AgentMetrics } from "./agent-metrics.js";
import { remoteParent, type AgentTracing } from "./agent-tracing.js";
import { GEN_AI, LITE_AGENT } from "./gen-ai-attributes.js";
import { runSpanIds, turnSpanIds } from "./run-span-ids.js";

/** Runs followed at once; beyond this the oldest is forgotten (its span never ends: a run that never finishes). */
const MAX_OPEN_RUNS = 10_000;

interface OpenRun {
  sessionId: string;
  runId: string;
  agent: string;
  span: Span | undefined;
  turn: { number: number; span: Span } | undefined;
  /** The newest turn ended: a repeated event of it or of an earlier turn changes nothing. */
  endedTurn: number;
  approvals: Map<string, { span: Span | undefined; requestedAt: number }>;
  resolvedApprovals: Set<string>;
}

/**
 * The worker side of the `liteAgentTelemetry` sink: spans of runs, turns and approval waits from the events the
 * workflow reports, with turn and approval counts. Ids are derived alike on every worker (run-span-ids.ts), so
 * activity spans nest and a worker taking over after a crash continues them; a repeated event changes nothing.
 */
export class RunSpans {
  private readonly runs = new Map<string, OpenRun>();
  /** Runs that ended, newest last (bounded like the open ones): their repeated events are ignored. */
  private readonly endedRuns = new Set<string>();

  constructor(
    private readonly tracing: AgentTracing | undefined,
    private readonly metrics: AgentMetrics | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Handles one reported event of run `runId` of the session `info.workflowId`. */
  event(info: Pick<WorkflowInfo, "workflowId">, agent: string, runId: string, event: TelemetryEvent): void {
    if (this.endedRuns.has(runKey(info.workflowId, runId))) return;
    const run = this.open(info.workflowId, runId, agent);
    switch (event.type) {
      case "turn_start":
        return this.startTurn(run, event.turn, false);
      case "turn_end":
        if (event.turn <= run.endedTurn) return;
        this.metrics?.turnEnded(agent);
        return this.endTurn(run, event.turn, event.stopReason);
      case "approval_request":
        return this.startApproval(run, event.id, event.tool);
      case "approval_resolved":
        return this.endApproval(run, event.id, event.decision);
      case "done":
        return this.endRun(run, event);
    }
  }

  /** Runs with a span open (for tests and diagnostics). */
  get openRuns(): number {
    return this.runs.size;
  }

  private open(sessionId: string, runId: string, agent: string): OpenRun {
    const key = runKey(sessionId, runId);
    let run = this.runs.get(key);
    if (!run) {
      run = {
        sessionId,
        runId,
        agent,
        span: undefined,
        turn: undefined,
        endedTurn: 0,
        approvals: new Map(),
        resolvedApprovals: new Set(),
      };
      this.runs.set(key, run);
      if (this.runs.size > MAX_OPEN_RUNS) this.runs.delete(this.runs.keys().next().value!);
    }
    return run;
  }

  private runSpan(run: OpenRun, resumed: boolean): Span | undefined {
    if (!this.tracing || run.span) return run.span;
    const ids = runSpanIds(run.sessionId, run.runId);
    run.span = this.tracing.startSpanWithIds(
      `invoke_agent ${run.agent}`,
      ids,
      {
        root: true,
        attributes: {
          [GEN_AI.operationName]: "invoke_agent",
          [GEN_AI.agentName]: run.agent,
          [GEN_AI.conversationId]: run.sessionId,
          [LITE_AGENT.sessionId]: run.sessionId,
          [LITE_AGENT.runId]: run.runId,
          ...(resumed ? { [LITE_AGENT.resumed]: true } : {}),
        },
      },
      ROOT_CONTEXT,
    );
    return run.span;
  }

  private runContext(run: OpenRun): Context {
    return remoteParent(runSpanIds(run.sessionId, run.runId));
  }

  private startTurn(run: OpenRun, turn: number, resumed: boolean): void {
    if (turn <= run.endedTurn || run.turn?.number === turn) return;
    if (run.turn) this.endTurn(run, run.turn.number, undefined);
    if (!this.tracing) return;
    this.runSpan(run, turn > 1 || resumed);
    const span = this.tracing.startSpanWithIds(
      `turn ${turn}`,
      turnSpanIds(run.sessionId, run.runId, turn),
      {
        attributes: {
          [LITE_AGENT.turn]: turn,
          [GEN_AI.agentName]: run.agent,
          ...(resumed ? { [LITE_AGENT.resumed]: true } : {}),
        },
      },
      this.runContext(run),
    );
    run.turn = { number: turn, span };
  }

  private endTurn(run: OpenRun, turn: number, stopReason: string | undefined): void {
    if (!run.turn || run.turn.number !== turn) this.startTurn(run, turn, true);
    const span = run.turn?.span;
    run.turn = undefined;
    run.endedTurn = Math.max(run.endedTurn, turn);
    if (!span) return;
    if (stopReason) span.setAttribute(LITE_AGENT.stopReason, stopReason);
    span.end();
  }

  private startApproval(run: OpenRun, id: string, tool: string): void {
    if (run.approvals.has(id) || run.resolvedApprovals.has(id)) return;
    this.metrics?.approvalRequested(run.agent);
    const parent = run.turn ? trace.setSpan(this.runContext(run), run.turn.span) : this.runContext(run);
    const span = this.tracing?.tracer.startSpan(
      `approval ${tool}`,
      { attributes: { [GEN_AI.toolName]: tool, [GEN_AI.toolCallId]: id } },
      parent,
    );
    run.approvals.set(id, { span, requestedAt: this.now() });
  }

  private endApproval(run: OpenRun, id: string, decision: string): void {
    if (run.resolvedApprovals.has(id)) return;
    run.resolvedApprovals.add(id);
    const approval = run.approvals.get(id);
    run.approvals.delete(id);
    this.metrics?.approvalResolved(
      run.agent,
      decision,
      approval ? this.now() - approval.requestedAt : undefined,
    );
    approval?.span?.setAttribute(LITE_AGENT.approvalDecision, decision);
    approval?.span?.end();
  }

  private endRun(run: OpenRun, event: Extract<TelemetryEvent, { type: "done" }>): void {
    if (run.turn) this.endTurn(run, run.turn.number, undefined);
    for (const [id] of run.approvals) this.endApproval(run, id, "cancelled");
    this.metrics?.runEnded(run.agent, event.reason);
    const key = runKey(run.sessionId, run.runId);
    this.runs.delete(key);
    this.endedRuns.add(key);
    if (this.endedRuns.size > MAX_OPEN_RUNS) this.endedRuns.delete(this.endedRuns.keys().next().value!);
    // Unseen until its end: a run that ended before its first turn (its agent unknown), so not a resumed one.
    const span = this.runSpan(run, false);
    if (!span) return;
    span.setAttributes({
      [LITE_AGENT.stopReason]: event.reason,
      [GEN_AI.inputTokens]: event.usage.inputTokens,
      [GEN_AI.outputTokens]: event.usage.outputTokens,
    });
    if (event.reason === "error") span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}

function runKey(sessionId: string, runId: string): string {
  return `${sessionId}\u0000${runId}`;
}
