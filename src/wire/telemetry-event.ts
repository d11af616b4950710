import type { Sinks } from "@temporalio/workflow";
import type { Decision, StopReason, TurnStopReason } from "../kernel/vocabulary/events.js";
import type { Usage } from "../kernel/vocabulary/model.js";

/**
 * What the session workflow tells the worker's telemetry about a run, through the `liteAgentTelemetry` sink: the
 * few facts spans and metrics need (never a message's content), derived from the run's events.
 */
export type TelemetryEvent =
  | { type: "turn_start"; turn: number }
  | { type: "turn_end"; turn: number; stopReason: TurnStopReason }
  | { type: "approval_request"; id: string; tool: string }
  | { type: "approval_resolved"; id: string; decision: Exclude<Decision, "ask"> }
  | { type: "done"; reason: StopReason; usage: Usage };

/** The sink the session workflow reports to (a Temporal workflow sink: it adds nothing to the history). */
export interface TelemetrySinks extends Sinks {
  liteAgentTelemetry: {
    /** A run's event; `agent` and `runId` name the run (the session is the workflow id). */
    event(agent: string, runId: string, event: TelemetryEvent): void;
  };
}
