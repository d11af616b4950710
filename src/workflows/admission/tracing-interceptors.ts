import type { WorkflowInterceptors } from "@temporalio/workflow";
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from "@temporalio/interceptors-opentelemetry/lib/workflow/index.js";

/**
 * Temporal's OpenTelemetry inbound interceptor without update spans: a span around an update handler completes it
 * after commands the activation issues next (the search attribute upsert), reordering history so sessions would not
 * replay across workers with and without tracing. The client's update span still starts the trace.
 */
class SessionInboundInterceptor extends OpenTelemetryInboundInterceptor {
  override handleUpdate: OpenTelemetryInboundInterceptor["handleUpdate"] = (input, next) => next(input);
  override validateUpdate: OpenTelemetryInboundInterceptor["validateUpdate"] = (input, next) => next(input);
}

/**
 * The workflow interceptors of the tracing bundle (`loadWorkflowBundle({ tracing: true })`): Temporal's OpenTelemetry
 * ones, exported through the worker's `exporter` sink, less update spans. None adds or reorders commands, so histories
 * replay alike with and without tracing (test/replay/tracing-replay.test.ts).
 */
export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new SessionInboundInterceptor()],
  outbound: [new OpenTelemetryOutboundInterceptor()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
