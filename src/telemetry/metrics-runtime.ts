import { IllegalStateError } from "@temporalio/common";
import type { Runtime, RuntimeOptions, TelemetryOptions } from "@temporalio/worker";
import { temporalWorker } from "../runtime/temporal-worker.js";
import { APPROVAL_WAIT_BUCKETS, METRIC_NAMES } from "./agent-metrics.js";

/** Where the metrics endpoint listens: a port (on all interfaces) or `host:port`. */
export type MetricsAddress = number | string;

/** `host:port` of an address (a bare port listens on all interfaces). */
export function metricsBindAddress(address: MetricsAddress): string {
  return typeof address === "number" || /^\d+$/.test(address) ? `0.0.0.0:${address}` : address;
}

/** The metrics endpoint the environment asks for: `LITE_AGENT_METRICS_PORT` (a port, or `host:port`), if set. */
export function metricsAddressFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.LITE_AGENT_METRICS_PORT?.trim();
  return value ? value : undefined;
}

/**
 * Temporal runtime telemetry that serves metrics on a Prometheus endpoint (`http://<address>/metrics`): Temporal's
 * own worker metrics (`temporal_*`: task slots, poll and schedule-to-start latencies, sticky cache...) and the
 * agent metrics (`lite_agent_*`, agent-metrics.ts), which use the same meter.
 */
export function metricsTelemetryOptions(address: MetricsAddress): Pick<TelemetryOptions, "metrics"> {
  return {
    metrics: {
      prometheus: {
        bindAddress: metricsBindAddress(address),
        histogramBucketOverrides: { [METRIC_NAMES.approvalWait]: APPROVAL_WAIT_BUCKETS },
      },
    },
  };
}

/** The address this process's runtime serves metrics on, when installMetricsRuntime installed it. */
let installedAt: string | undefined;

/**
 * Installs the Temporal runtime with the Prometheus endpoint. Temporal has one runtime per process, made by the
 * first connection or worker (or `Runtime.install`), so this must come first: otherwise it fails and says so. Asked
 * again for the same address, it returns the runtime it installed.
 */
export function installMetricsRuntime(address: MetricsAddress, options: RuntimeOptions = {}): Runtime {
  const { Runtime } = temporalWorker();
  const bindAddress = metricsBindAddress(address);
  if (installedAt === bindAddress) return Runtime.instance();
  try {
    const runtime = Runtime.install({
      ...options,
      telemetryOptions: { ...options.telemetryOptions, ...metricsTelemetryOptions(address) },
    });
    installedAt = bindAddress;
    return runtime;
  } catch (error) {
    if (!(error instanceof IllegalStateError)) throw error;
    throw new IllegalStateError(
      `cannot serve metrics on ${bindAddress}: the Temporal runtime of this process already exists ` +
        "(a connection or worker was made first). Call installMetricsRuntime() before connecting, or pass " +
        "metricsTelemetryOptions() to your own Runtime.install().",
    );
  }
}
