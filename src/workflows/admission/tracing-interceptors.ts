import type { WorkflowInterceptors } from "@temporalio/workflow";
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from "@temporalio/interceptors-opentelemetry/lib/workflow/index.js";

/**
 * Temporal's OpenTelemetry inbound interceptor without its update spans. Wrapping an update handler in a span
 * completes the update a few microtasks later, after commands the same activation issues next (the session's
 * search attribute upsert): the order of the history's events changes, and a session whose history was written by a
 * worker without tracing fails to replay on one with it (and back). Updates pass through untraced; the client's
 * update span still starts the trace.
 */
class SessionInboundInterceptor extends OpenTelemetryInboundInterceptor {
  override handleUpdate: OpenTelemetryInboundInterceptor["handleUpdate"] = (input, next) => next(input);
  override validateUpdate: OpenTelemetryInboundInterceptor["validateUpdate"] = (input, next) => next(input);
}

/**
 * The workflow interceptors of the tracing bundle (`loadWorkflowBundle({ tracing: true })`): Temporal's
 * OpenTelemetry ones (the workflow run, signals, queries, scheduled activities, continue-as-new), whose spans go out
 * through the worker's `exporter` sink, less the update spans (see above). None adds a command or changes the
 * order of commands: histories replay alike on workers with and without tracing (test/replay/tracing-replay.test.ts).
 */
export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new SessionInboundInterceptor()],
  outbound: [new OpenTelemetryOutboundInterceptor()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
