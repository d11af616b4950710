import { AgentTracing } from "./agent-tracing.js";
import { loadOtlpTracing } from "./tracing-sdk.js";

let shared: Promise<AgentTracing> | undefined;

/**
 * Tracing as the standard OpenTelemetry environment asks: OTLP (http/protobuf) spans to
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`, tuned by other `OTEL_*` variables; off when
 * no endpoint, `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. One per process, flushed at exit.
 */
export async function tracingFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Promise<AgentTracing | undefined> {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return undefined;
  if (!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  shared ??= loadOtlpTracing().then(({ sdk, otlp }) => {
    const exporter = new otlp.OTLPTraceExporter();
    const tracing = new AgentTracing(sdk, new sdk.traceBase.BatchSpanProcessor(exporter));
    process.once("beforeExit", () => void tracing.shutdown().catch(() => undefined));
    return tracing;
  });
  // A failed load (a package missing) is reported to this caller, and the next one tries again.
  return shared.catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
}
