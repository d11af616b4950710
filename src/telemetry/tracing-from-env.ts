import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { AgentTracing } from "./agent-tracing.js";

let shared: AgentTracing | undefined;

/**
 * Tracing as the standard OpenTelemetry environment asks: OTLP (http/protobuf) spans to
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`, tuned by other `OTEL_*` variables; off when
 * no endpoint, `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. One per process, flushed at exit.
 */
export function tracingFromEnv(env: NodeJS.ProcessEnv = process.env): AgentTracing | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  if (!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  if (!shared) {
    const tracing = new AgentTracing(new BatchSpanProcessor(new OTLPTraceExporter()));
    process.once("beforeExit", () => void tracing.shutdown().catch(() => undefined));
    shared = tracing;
  }
  return shared;
}
