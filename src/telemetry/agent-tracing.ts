import {
  context,
  propagation,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from "@opentelemetry/api";
import type { Resource } from "@opentelemetry/resources";
import type { BasicTracerProvider, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { PresetIdGenerator } from "./preset-id-generator.js";
import type { SpanIds } from "./run-span-ids.js";
import { loadTracingSdk, type TracingSdk } from "./tracing-sdk.js";

/** The service name when neither the option nor `OTEL_SERVICE_NAME` gives one. */
export const DEFAULT_SERVICE_NAME = "lite-agent-worker";

/** Options of {@link createAgentTracing}: where spans go (a processor, or an exporter behind a simple one). */
export interface AgentTracingOptions {
  /** Receives every span: ours and Temporal's (client, workflow, activity). */
  spanProcessor?: SpanProcessor;
  /** Or an exporter, wrapped in a `SimpleSpanProcessor` (tests; prefer a batch processor in production). */
  exporter?: SpanExporter;
  /** `service.name`; default `OTEL_SERVICE_NAME`, else {@link DEFAULT_SERVICE_NAME}. */
  serviceName?: string;
}

/**
 * The tracing of a worker or client: one tracer provider of its own (no global one is registered), whose tracer
 * makes our spans (session runs, turns, model calls, tool calls) and Temporal's interceptors' spans. Also installs
 * the global context manager and propagator when none are (see `ensureGlobals`).
 */
export class AgentTracing {
  /** The tracer every span is made with. */
  readonly tracer: Tracer;
  /** The resource spans carry (`service.name`, `OTEL_RESOURCE_ATTRIBUTES`). */
  readonly resource: Resource;
  private readonly provider: BasicTracerProvider;
  private readonly ids: PresetIdGenerator;

  constructor(
    /** The SDK's modules (`loadTracingSdk`), Temporal's OpenTelemetry interceptors among them. */
    readonly sdk: TracingSdk,
    /** Where spans go: also given to Temporal's workflow span exporter sink. */
    readonly spanProcessor: SpanProcessor,
    serviceName?: string,
  ) {
    this.ids = new PresetIdGenerator(new sdk.traceBase.RandomIdGenerator());
    this.resource = tracingResource(sdk, serviceName);
    this.provider = new sdk.traceBase.BasicTracerProvider({
      resource: this.resource,
      idGenerator: this.ids,
      spanProcessors: [spanProcessor],
    });
    this.tracer = this.provider.getTracer("lite-agent-temporal");
    ensureGlobals(sdk);
  }

  /** Starts a span under `parent`, with the given ids (a span every worker names alike: runs, turns). */
  startSpanWithIds(name: string, ids: Partial<SpanIds>, options: SpanOptions, parent: Context): Span {
    return this.ids.withIds(ids, () => this.tracer.startSpan(name, options, parent));
  }

  /** Exports the spans that have ended and not yet gone. */
  async forceFlush(): Promise<void> {
    await this.provider.forceFlush();
  }

  /** Flushes and stops the span processor. */
  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}

/** Tracing to the given span processor or exporter; fails at once when the OpenTelemetry SDK is not installed. */
export async function createAgentTracing(options: AgentTracingOptions): Promise<AgentTracing> {
  if (!options.spanProcessor && !options.exporter)
    throw new TypeError("createAgentTracing: give a spanProcessor or an exporter");
  const sdk = await loadTracingSdk();
  const processor = options.spanProcessor ?? new sdk.traceBase.SimpleSpanProcessor(options.exporter!);
  return new AgentTracing(sdk, processor, options.serviceName);
}

function tracingResource({ resources }: TracingSdk, serviceName: string | undefined): Resource {
  const { Resource, envDetectorSync } = resources;
  const named = new Resource({ "service.name": DEFAULT_SERVICE_NAME });
  const fromEnv = envDetectorSync.detect();
  const resource = Resource.default().merge(named).merge(fromEnv);
  return serviceName ? resource.merge(new Resource({ "service.name": serviceName })) : resource;
}

let globalsSet = false;

/**
 * Installs, once per process and unless others already are, the AsyncLocalStorage context manager (the current
 * span follows `await`s) and the W3C trace context propagator (Temporal's interceptors carry span contexts in
 * headers with the global propagator: without one, client, workflow and activity spans would not connect).
 */
function ensureGlobals({ asyncHooks, core }: TracingSdk): void {
  if (globalsSet) return;
  globalsSet = true;
  const manager = new asyncHooks.AsyncLocalStorageContextManager();
  if (context.setGlobalContextManager(manager)) manager.enable();
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
}

/** The span context of a span another process may have made, as the parent of a new span here. */
export function remoteParent(ids: SpanIds): Context {
  return trace.setSpanContext(context.active(), { ...ids, traceFlags: 1, isRemote: true });
}
