import type { ClientInterceptors } from "@temporalio/client";
import type { AgentTracing } from "./agent-tracing.js";

/**
 * A client's interceptors for tracing: Temporal's OpenTelemetry client interceptor, whose spans (`StartWorkflow`,
 * `UpdateWithStartWorkflow:startRun`, `SignalWorkflow:…`, `QueryWorkflow:…`) carry their context to the workflow in
 * headers, where the worker's workflow interceptors continue the trace. None when tracing is off.
 */
export function clientTracingInterceptors(tracing: AgentTracing | undefined): ClientInterceptors | undefined {
  if (!tracing) return undefined;
  const { OpenTelemetryWorkflowClientInterceptor } = tracing.sdk.temporal;
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] };
}
