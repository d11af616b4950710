import { proxySinks, workflowInfo } from "@temporalio/workflow";
import type { TelemetryEvent, TelemetrySinks } from "../../wire/telemetry-event.js";
import type { AgentEvent } from "../../kernel/vocabulary/events.js";

const { liteAgentTelemetry } = proxySinks<TelemetrySinks>();

/**
 * Tells the worker's telemetry (spans of runs and turns, approval metrics) about a run's event. A sink call adds no
 * command and no history event; it is skipped while the workflow replays, so each event is reported once, by the
 * worker that lived it. Only the events telemetry needs go, reduced to a few fields.
 */
export function reportTelemetry(agent: string, runId: string, event: AgentEvent): void {
  const reported = telemetryEvent(event);
  if (!reported || workflowInfo().unsafe.isReplaying) return;
  liteAgentTelemetry.event(agent, runId, reported);
}

/** The telemetry fact an event carries, if any. */
export function telemetryEvent(event: AgentEvent): TelemetryEvent | undefined {
  if (event.agentId !== undefined || event.forkId !== undefined) return undefined;
  switch (event.type) {
    case "turn_start":
      return { type: "turn_start", turn: event.turn };
    case "turn_end":
      return { type: "turn_end", turn: event.turn, stopReason: event.stopReason };
    case "approval_request":
      return { type: "approval_request", id: event.call.id, tool: event.call.name };
    case "approval_resolved":
      return { type: "approval_resolved", id: event.id, decision: event.decision };
    case "done":
      return { type: "done", reason: event.reason, usage: event.result.usage };
    default:
      return undefined;
  }
}
