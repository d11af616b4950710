import type * as AsyncHooks from "@opentelemetry/context-async-hooks";
import type * as Core from "@opentelemetry/core";
import type * as Otlp from "@opentelemetry/exporter-trace-otlp-proto";
import type * as Resources from "@opentelemetry/resources";
import type * as TraceBase from "@opentelemetry/sdk-trace-base";
import type * as TemporalOtel from "@temporalio/interceptors-opentelemetry";
import { importOptional, type OptionalPackage } from "../runtime/optional-package.js";

/** The packages tracing needs (optional peer dependencies): the OpenTelemetry SDK and Temporal's interceptors. */
export const TRACING_PACKAGES: readonly OptionalPackage[] = [
  "@temporalio/interceptors-opentelemetry",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/resources",
  "@opentelemetry/core",
  "@opentelemetry/context-async-hooks",
];

/** The OpenTelemetry SDK modules tracing is made with, loaded on first use. */
export interface TracingSdk {
  traceBase: typeof TraceBase;
  resources: typeof Resources;
  core: typeof Core;
  asyncHooks: typeof AsyncHooks;
  temporal: typeof TemporalOtel;
}

async function importTracingSdk(): Promise<TracingSdk> {
  const [traceBase, resources, core, asyncHooks, temporal] = await Promise.all([
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/core"),
    import("@opentelemetry/context-async-hooks"),
    import("@temporalio/interceptors-opentelemetry"),
  ]);
  return { traceBase, resources, core, asyncHooks, temporal };
}

/** The tracing SDK; fails with one line naming the packages to install when one is missing. */
export function loadTracingSdk(feature = "OpenTelemetry tracing"): Promise<TracingSdk> {
  return importOptional(feature, TRACING_PACKAGES, importTracingSdk);
}

/** The OTLP (http/protobuf) span exporter of `tracingFromEnv`, with the tracing SDK. */
export async function loadOtlpTracing(): Promise<{
  sdk: TracingSdk;
  otlp: typeof Otlp;
}> {
  const feature = "OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)";
  const packages: OptionalPackage[] = [...TRACING_PACKAGES, "@opentelemetry/exporter-trace-otlp-proto"];
  return importOptional(feature, packages, async () => {
    const [sdk, otlp] = await Promise.all([
      importTracingSdk(),
      import("@opentelemetry/exporter-trace-otlp-proto"),
    ]);
    return { sdk, otlp };
  });
}
