import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { AgentTracing } from "./agent-tracing.js";

let shared: AgentTracing | undefined;

/**
 * Tracing as the standard OpenTelemetry environment asks: spans go by OTLP (http/protobuf) to
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` (headers, timeouts and batching from the
 * other `OTEL_EXPORTER_OTLP_*` and `OTEL_BSP_*` variables), named `OTEL_SERVICE_NAME`. Off (undefined) when no
 * endpoint is set, or when `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. One per process (workers and
 * clients share it), flushed when the process is about to exit.
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
