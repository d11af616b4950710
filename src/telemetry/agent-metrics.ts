import type {
  MetricCounter,
  MetricGauge,
  MetricHistogram,
  MetricMeter,
  MetricTags,
} from "@temporalio/common";
import type { Usage } from "../kernel/vocabulary/model.js";

/** How a tool call ended: its result, its result flagged as an error, or a failure of the activity itself. */
export type ToolOutcome = "ok" | "error" | "failed";

/** The names of our metrics, as Prometheus shows them (besides Temporal's own `temporal_*`). */
export const METRIC_NAMES = {
  turns: "lite_agent_turns_total",
  inputTokens: "lite_agent_input_tokens_total",
  outputTokens: "lite_agent_output_tokens_total",
  toolCalls: "lite_agent_tool_calls_total",
  runs: "lite_agent_runs_total",
  modelErrors: "lite_agent_model_errors_total",
  approvalsWaiting: "lite_agent_approvals_waiting",
  approvalWait: "lite_agent_approval_wait_seconds",
} as const;

/** Buckets of the approval wait histogram, in seconds: from a second to a day. */
export const APPROVAL_WAIT_BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];

/**
 * The agent metrics of a worker, on Temporal's metric meter (`Runtime.instance().metricMeter`), so they are served
 * by the same exporter as Temporal's runtime metrics (the Prometheus endpoint of `LITE_AGENT_METRICS_PORT`).
 * Without a metrics exporter in the runtime, recording costs next to nothing and goes nowhere.
 */
export class AgentMetrics {
  private readonly turns: MetricCounter;
  private readonly inputTokens: MetricCounter;
  private readonly outputTokens: MetricCounter;
  private readonly toolCalls: MetricCounter;
  private readonly runs: MetricCounter;
  private readonly modelErrors: MetricCounter;
  private readonly approvalsWaiting: MetricGauge;
  private readonly approvalWait: MetricHistogram;
  /** Approvals waiting, by agent, as this worker saw them asked and answered. */
  private readonly waiting = new Map<string, number>();

  constructor(meter: MetricMeter) {
    this.turns = meter.createCounter(
      METRIC_NAMES.turns,
      "1",
      "Turns completed (one model call and its tools)",
    );
    this.inputTokens = meter.createCounter(METRIC_NAMES.inputTokens, "1", "Model input (prompt) tokens");
    this.outputTokens = meter.createCounter(METRIC_NAMES.outputTokens, "1", "Model output tokens");
    this.toolCalls = meter.createCounter(METRIC_NAMES.toolCalls, "1", "Tool calls, by tool and outcome");
    this.runs = meter.createCounter(METRIC_NAMES.runs, "1", "Runs ended, by why (stop, error, cancelled, …)");
    this.modelErrors = meter.createCounter(
      METRIC_NAMES.modelErrors,
      "1",
      "Model call attempts that failed, by error (each retry counts)",
    );
    this.approvalsWaiting = meter.createGauge(
      METRIC_NAMES.approvalsWaiting,
      "int",
      "1",
      "Tool calls waiting for a person's approval",
    );
    this.approvalWait = meter.createHistogram(
      METRIC_NAMES.approvalWait,
      "float",
      "s",
      "How long approvals waited for a decision",
    );
  }

  /** A turn ended. */
  turnEnded(agent: string): void {
    this.turns.add(1, { agent });
  }

  /** A model call answered with this usage. */
  modelUsage(agent: string, model: string, usage: Usage): void {
    const tags: MetricTags = { agent, model };
    if (usage.inputTokens > 0) this.inputTokens.add(usage.inputTokens, tags);
    if (usage.outputTokens > 0) this.outputTokens.add(usage.outputTokens, tags);
  }

  /** A tool call ended so. */
  toolCall(agent: string, tool: string, outcome: ToolOutcome): void {
    this.toolCalls.add(1, { agent, tool, outcome });
  }

  /** A run ended so (its `done` event's reason). */
  runEnded(agent: string, reason: string): void {
    this.runs.add(1, { agent, reason });
  }

  /** A model call attempt failed with an error of this kind (its failure type or class name). */
  modelError(agent: string, model: string, error: string): void {
    this.modelErrors.add(1, { agent, model, error });
  }

  /** An approval was asked for. */
  approvalRequested(agent: string): void {
    this.setWaiting(agent, (this.waiting.get(agent) ?? 0) + 1);
  }

  /** An approval was decided after `waitedMs` (undefined: its request was seen by another worker). */
  approvalResolved(agent: string, decision: string, waitedMs: number | undefined): void {
    if (waitedMs === undefined) return;
    this.setWaiting(agent, Math.max(0, (this.waiting.get(agent) ?? 0) - 1));
    this.approvalWait.record(waitedMs / 1000, { agent, decision });
  }

  private setWaiting(agent: string, count: number): void {
    this.waiting.set(agent, count);
    this.approvalsWaiting.set(count, { agent });
  }
}
