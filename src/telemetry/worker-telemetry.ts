import type { InjectedSinks, WorkerInterceptors } from "@temporalio/worker";
import { temporalWorker } from "../runtime/temporal-worker.js";
import type { AgentActivities } from "../contract/activity-types.js";
import type { TelemetrySinks } from "../wire/telemetry-event.js";
import { AgentMetrics } from "./agent-metrics.js";
import type { AgentTracing } from "./agent-tracing.js";
import { installMetricsRuntime, metricsAddressFromEnv, type MetricsAddress } from "./metrics-runtime.js";
import { RunSpans } from "./run-spans.js";
import { tracingFromEnv } from "./tracing-from-env.js";
import type { WorkflowBundleOptions } from "../worker/workflow-bundle.js";
import { tracedActivities } from "./traced-activities.js";

/** The telemetry options of `createWorker`. */
export interface WorkerTelemetryOptions {
  /**
   * OpenTelemetry tracing: an {@link AgentTracing} (`createAgentTracing`), `false` for none, or by default the
   * environment's (`tracingFromEnv`: OTLP export when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, else off).
   */
  tracing?: AgentTracing | false;
  /**
   * A Prometheus endpoint for Temporal's and the agents' metrics: a port or `host:port`, `false` for none, or by
   * default `LITE_AGENT_METRICS_PORT` (off when unset). Installs the process's Temporal runtime, so it must come
   * before any connection is made (see `installMetricsRuntime`).
   */
  metrics?: MetricsAddress | false;
}

/**
 * What a worker needs for tracing and metrics: Temporal's OpenTelemetry interceptors and span exporter sink (when
 * tracing), our always-registered `liteAgentTelemetry` sink, and activities wrapped with call spans and metrics.
 * Metrics go to Temporal's runtime meter (metrics-runtime.ts).
 */
export class WorkerTelemetry {
  readonly metrics = new AgentMetrics(temporalWorker().Runtime.instance().metricMeter);
  private readonly runs: RunSpans;

  constructor(
    /** Tracing, or undefined when off. */
    readonly tracing: AgentTracing | undefined,
  ) {
    this.runs = new RunSpans(tracing, this.metrics);
  }

  /**
   * The telemetry the options (or the environment) ask for. Call before connecting: serving metrics installs the
   * Temporal runtime.
   */
  static async fromOptions(options: WorkerTelemetryOptions): Promise<WorkerTelemetry> {
    const metrics = options.metrics === false ? undefined : (options.metrics ?? metricsAddressFromEnv());
    if (metrics !== undefined) installMetricsRuntime(metrics);
    const tracing = options.tracing === false ? undefined : (options.tracing ?? (await tracingFromEnv()));
    return new WorkerTelemetry(tracing);
  }

  /** The workflow bundle's options: Temporal's workflow interceptors when tracing is on. */
  get bundleOptions(): WorkflowBundleOptions {
    return { tracing: this.tracing !== undefined };
  }

  /** When the worker has stopped: exports the spans that have ended (tracing itself goes on: it may be shared). */
  async stopped(): Promise<void> {
    await this.tracing?.forceFlush().catch(() => undefined);
  }

  /** The worker's interceptors: the user's, then Temporal's OpenTelemetry ones when tracing is on. */
  interceptors(user: WorkerInterceptors | undefined): WorkerInterceptors | undefined {
    if (!this.tracing) return user;
    const tracer = this.tracing.tracer;
    const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } =
      this.tracing.sdk.temporal;
    return {
      ...user,
      // The client activities use (the callModel activity's request query): its calls are traced too.
      client: { ...user?.client, workflow: clientInterceptors(user, this.tracing) },
      activity: [
        ...(user?.activity ?? []),
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    };
  }

  /** The worker's sinks: the user's, ours, and Temporal's workflow span exporter when tracing is on. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- WorkerOptions.sinks is InjectedSinks<any>
  sinks(user: InjectedSinks<any> | undefined): InjectedSinks<any> {
    const ours: InjectedSinks<TelemetrySinks> = {
      liteAgentTelemetry: {
        event: {
          fn: (info, agent, runId, event) => this.runs.event(info, agent, runId, event),
          callDuringReplay: false,
        },
      },
    };
    if (!this.tracing) return { ...user, ...ours };
    const { makeWorkflowExporter } = this.tracing.sdk.temporal;
    const exporter = makeWorkflowExporter(this.tracing.spanProcessor, this.tracing.resource);
    return { ...user, ...ours, exporter };
  }

  /** The activities with model and tool call spans and metrics. */
  activities(activities: AgentActivities): AgentActivities {
    return tracedActivities(activities, this.tracing, this.metrics);
  }
}

/** The user's workflow client interceptors and Temporal's OpenTelemetry one (the deprecated object form is kept). */
function clientInterceptors(user: WorkerInterceptors | undefined, { sdk, tracer }: AgentTracing) {
  const theirs = user?.client?.workflow;
  if (theirs && !Array.isArray(theirs)) return theirs;
  return [...(theirs ?? []), new sdk.temporal.OpenTelemetryWorkflowClientInterceptor({ tracer })];
}
