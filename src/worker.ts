import type { NativeConnection, Worker, WorkerOptions } from "@temporalio/worker";
import { AgentRegistry, createActivities, workerScrubber, type ProviderMap } from "./activities/index.js";
import { McpConnectionPool } from "./mcp/mcp-connection-pool.js";
import { assertMcpInstalled } from "./mcp/mcp-sdk.js";
import type { McpBreakerLog } from "./mcp/mcp-breakers.js";
import type { AgentDefinition } from "./define-agent.js";
import { agentTaskQueue } from "./runtime/agent-task-queue.js";
import { AgentWorker } from "./worker/agent-worker.js";
import { DEFAULT_TASK_QUEUE, loadConnectionConfig } from "./runtime/connection-config.js";
import { checkSearchAttributes } from "./worker/search-attribute-check.js";
import { COST_SEARCH_ATTRIBUTE, SESSION_SEARCH_ATTRIBUTES } from "./worker/session-search-attributes.js";
import { loadWorkflowBundle } from "./worker/workflow-bundle.js";
import { temporalWorker } from "./runtime/temporal-worker.js";
import {
  LIVE_OUTPUT_HEARTBEAT_MS,
  deltaTransportFromEnv,
  type DeltaTransport,
} from "./stream/delta-transport.js";
import { withPayloadStorage, type PayloadStorageOption } from "./storage/payload-storage.js";
import { withPayloadEncryption, type PayloadEncryptionOption } from "./encryption/payload-encryption.js";
import { declaredSecrets } from "./wire/scrub-secrets.js";
import { DEFAULT_STICKY_QUEUE_TIMEOUT } from "./plan/recovery-defaults.js";
import { WorkerTelemetry, type WorkerTelemetryOptions } from "./telemetry/worker-telemetry.js";
import type { WorkerDeploymentVersion } from "@temporalio/common";
import { deploymentFromEnv, deploymentWorkerOptions } from "./worker/worker-deployment.js";

/** Options of `createWorker` (tracing and metrics: {@link WorkerTelemetryOptions}, docs/operations.md). */
export interface CreateWorkerOptions extends WorkerTelemetryOptions {
  /** The agents this worker runs (their tool implementations run here). */
  agents: AgentDefinition[];
  /** Model providers by model id; `"*"` serves any model. */
  providers: ProviderMap;
  /**
   * Groups of actors that agents' `permission.approvers` name (`{ finance: ["bob", "carol"] }`), for the groups
   * an agent does not define itself: your organisation's groups, kept out of the agent definitions.
   */
  approverGroups?: Record<string, string[]>;
  /**
   * The base task queue, default `lite-agent`. Each agent's sessions run on `<taskQueue>.<agent>` (workflow and
   * activities), and this worker polls one such queue per agent, so a session never reaches a worker without its agent.
   */
  taskQueue?: string;
  /** Default: a connection from the environment (TEMPORAL_ADDRESS, TLS, API key...). */
  connection?: NativeConnection;
  namespace?: string;
  /**
   * How live model output is published: the session itself (default), Redis Streams, or not at all.
   * Default: Redis when `REDIS_URL` is set.
   */
  deltas?: DeltaTransport | false;
  /**
   * Check at start that the namespace has the sessions' search attributes (AgentName, AgentStatus, AgentTurns,
   * AgentTokens, and AgentCost when an agent's budget prices a model) and fail with the commands that create them.
   * Default true; false for sessions started with `searchAttributes: false`.
   */
  searchAttributes?: boolean;
  /**
   * Sessions kept in memory (Temporal's workflow cache), all agents together (split evenly among them). An idle
   * session beyond this is evicted and replayed from its history when it next has work. Default 250 (≈ 0.5 MB each).
   * `workerOptions.maxCachedWorkflows` sets the cache of each agent's worker instead.
   */
  maxCachedSessions?: number;
  /**
   * Task queues this worker also polls, for tool calls only: the queues tools name with `taskQueue` (tools that
   * need special access or hardware), when this is a worker where they should run. Polled exactly as named.
   */
  toolTaskQueues?: string[];
  /**
   * Secret values replaced with `[redacted]` in all the activities record or stream (docs/operations.md#secrets),
   * besides `OPENAI_API_KEY`, `TEMPORAL_API_KEY`, providers' keys and the agents' MCP headers and environments.
   */
  secrets?: string[];
  /**
   * MCP servers' listing deadline and circuit breakers (docs/operations.md, "MCP servers"): `listTimeoutMs` to start
   * or reach a server and list its tools (default 15 s; a server's own overrides it), and the window a server that
   * missed it or failed is not tried again on this worker: `backoffMs` (default 30 s), doubling to `maxBackoffMs` (5 min).
   */
  mcp?: { listTimeoutMs?: number; backoffMs?: number; maxBackoffMs?: number };
  /**
   * Where payloads of 128 KiB and more go instead of the history (the SDK's external storage, claim check): an
   * `ExternalStorage` of your own, `false` for none, or by default the environment's (`LITE_AGENT_STORAGE`, default
   * the filesystem driver under `.cache/temporal/payloads`; see docs/operations.md). Clients need the same setting.
   */
  storage?: PayloadStorageOption;
  /**
   * Payload encryption (AES-256-GCM codec): a key ring, a `PayloadCodec` of your own, `false` for none, or by default
   * the environment's (off unless `LITE_AGENT_ENCRYPTION_KEYS` or `LITE_AGENT_ENCRYPTION_KEY_FILE` is set; see
   * docs/operations.md). Clients need the same keys.
   */
  encryption?: PayloadEncryptionOption;
  /**
   * The worker deployment version this worker is (`{ deploymentName, buildId }`); sessions are pinned to their start
   * version and move at continue-as-new (docs/operations.md, "Rollout"). Default: from `TEMPORAL_DEPLOYMENT_NAME`
   * and `TEMPORAL_WORKER_BUILD_ID`; `false`, or neither set, gives an unversioned worker.
   */
  deployment?: WorkerDeploymentVersion | false;
  /**
   * Extra Temporal worker options (concurrency limits, identity...). `stickyQueueScheduleToStartTimeout` defaults
   * to {@link DEFAULT_STICKY_QUEUE_TIMEOUT} here (Temporal's own default is 10 s).
   */
  workerOptions?: Partial<
    Omit<
      WorkerOptions,
      "connection" | "namespace" | "taskQueue" | "activities" | "workflowBundle" | "workflowsPath"
    >
  >;
}

/**
 * Default of `maxCachedSessions`. Measured (`npm run bench -- long`): 1,000 idle + 100 active sessions peak at about
 * 700 MB worker RSS with a 512 MB heap limit (`--max-old-space-size=512`), about 1.3 GB without one (V8 then keeps
 * evicted sessions' garbage longer); with Temporal's default cache size, 1.7 GB.
 */
export const DEFAULT_MAX_CACHED_SESSIONS = 250;

/**
 * Temporal workers that run agent sessions, one per agent on its task queue: the session workflow (bundled once,
 * cached on disk) and the model and tool activities. `await worker.run()` until shutdown. Needs `@temporalio/worker`
 * (an optional peer dependency): without it, fails at once with the `npm install` to run.
 * @example const worker = await createWorker({ agents: [researcher], providers: { "*": openaiProvider() } });
 */
export async function createWorker(options: CreateWorkerOptions): Promise<AgentWorker> {
  const { NativeConnection, Worker } = temporalWorker();
  const config = loadConnectionConfig({ namespace: options.namespace });
  const namespace = options.namespace ?? config.namespace;
  const registry = new AgentRegistry(options.agents, options.providers, options.approverGroups);
  const agents = registry.agentNames();
  if (agents.length === 0) throw new TypeError("createWorker: no agents to serve");
  if (registry.mcpServerConfigs().length > 0) assertMcpInstalled();
  // Before the connection: serving metrics installs the process's Temporal runtime.
  const telemetry = await WorkerTelemetry.fromOptions(options);
  const connection = options.connection ?? (await NativeConnection.connect(config.connectionOptions));
  reportSkippedSkills(registry);
  if (options.searchAttributes !== false) {
    const required = registry.pricesModels()
      ? { ...SESSION_SEARCH_ATTRIBUTES, ...COST_SEARCH_ATTRIBUTE }
      : SESSION_SEARCH_ATTRIBUTES;
    await checkSearchAttributes(connection.operatorService, namespace, required);
  }
  const transport = options.deltas === false ? undefined : (options.deltas ?? deltaTransportFromEnv());
  // The codec runs before external storage on the way out, so stored blobs are ciphertext too.
  const dataConverter = withPayloadStorage(
    withPayloadEncryption(options.workerOptions?.dataConverter, options.encryption),
    options.storage,
  );
  // The connections to the agents' MCP servers: opened on first use, closed (stdio servers stopped) with the worker.
  // Its breakers log the servers' last errors: scrubbed like the activities' failures, by the same scrubber.
  const scrubber = workerScrubber(registry, providerSecrets(options));
  const mcpPool = new McpConnectionPool({ ...options.mcp, log: breakerLog((text) => scrubber.scrub(text)) });
  const activities = telemetry.activities(
    createActivities(registry, transport, {
      mcpPool,
      scrubber,
      ...(dataConverter?.externalStorage ? { storage: dataConverter.externalStorage } : {}),
      ...(dataConverter?.payloadCodecs ? { payloadCodecs: dataConverter.payloadCodecs } : {}),
    }),
  );
  const workflowBundle = await loadWorkflowBundle({
    ...telemetry.bundleOptions,
    modules: registry.middlewareModules(),
  });
  const interceptors = telemetry.interceptors(options.workerOptions?.interceptors);
  const sinks = telemetry.sinks(options.workerOptions?.sinks);
  const base = options.taskQueue ?? DEFAULT_TASK_QUEUE;
  const versioning = deploymentWorkerOptions(
    options.deployment === false ? undefined : (options.deployment ?? deploymentFromEnv()),
  );
  const workers = new Map<string, Worker>();
  for (const agent of agents) {
    const worker = await Worker.create({
      ...cacheOptions(options, agents.length),
      stickyQueueScheduleToStartTimeout: DEFAULT_STICKY_QUEUE_TIMEOUT,
      ...versioning,
      // Live output and tool events reach readers in heartbeat details (docs/decisions/0019, 0021), which the SDK
      // sends at most once per throttle interval (0.8 of the heartbeat timeout unless this is lower): capped, so they
      // are readable about as soon as they are produced. The cap is per worker: tools here heartbeat as often.
      maxHeartbeatThrottleInterval: LIVE_OUTPUT_HEARTBEAT_MS,
      ...options.workerOptions,
      connection,
      namespace,
      taskQueue: agentTaskQueue(base, agent),
      workflowBundle,
      activities,
      dataConverter,
      ...(interceptors ? { interceptors } : {}),
      sinks,
    });
    workers.set(agent, worker);
  }
  for (const taskQueue of new Set(options.toolTaskQueues ?? [])) {
    // Tool queues never run the model activity: their heartbeats keep the SDK's throttle (0.8 × timeout).
    const worker = await Worker.create({
      ...versioning,
      ...options.workerOptions,
      connection,
      namespace,
      taskQueue,
      activities,
      dataConverter,
      ...(interceptors ? { interceptors } : {}),
    });
    workers.set(`tools:${taskQueue}`, worker);
  }
  return new AgentWorker(workers, async () => {
    await mcpPool.close();
    await transport?.close();
    await telemetry.stopped();
  });
}

/** A warning per skill file left out, in the Temporal runtime's log: the worker serves its agents without them. */
function reportSkippedSkills(registry: AgentRegistry): void {
  for (const { agent, file, error } of registry.skippedSkillFiles())
    temporalWorker()
      .Runtime.instance()
      .logger.warn(`agent '${agent}': skill file ${file} was skipped: ${error}`, {
        agent,
        file,
      });
}

/** Breaker changes in the Temporal runtime's log, scrubbed: a warning when one opens, info when it half-opens or closes. */
function breakerLog(scrub: (text: string) => string): McpBreakerLog {
  return (level, message, meta) => temporalWorker().Runtime.instance().logger[level](scrub(message), meta);
}

/** The secrets to scrub: the option's and those the given providers declared (factories declare theirs on use). */
function providerSecrets(options: CreateWorkerOptions): string[] {
  const declared = Object.values(options.providers).flatMap((entry) => declaredSecrets(entry));
  return [...(options.secrets ?? []), ...declared];
}

/** Each agent's share of the session cache; no more concurrent workflow tasks than cached sessions. */
function cacheOptions(options: CreateWorkerOptions, agents: number): Partial<WorkerOptions> {
  const total = options.maxCachedSessions ?? DEFAULT_MAX_CACHED_SESSIONS;
  const maxCachedWorkflows =
    options.workerOptions?.maxCachedWorkflows ?? Math.max(2, Math.ceil(total / agents));
  if (options.workerOptions?.tuner) return { maxCachedWorkflows };
  return {
    maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: Math.max(2, Math.min(40, maxCachedWorkflows)),
  };
}

export { AgentRegistry, type ProviderMap, type ProviderEntry } from "./activities/index.js";
export { DEFAULT_TASK_QUEUE, loadConnectionConfig } from "./runtime/connection-config.js";
export { DEFAULT_STICKY_QUEUE_TIMEOUT, DEFAULT_WORKFLOW_TASK_TIMEOUT } from "./plan/recovery-defaults.js";
export { declareSecrets, REDACTED } from "./wire/scrub-secrets.js";
export { agentTaskQueue } from "./runtime/agent-task-queue.js";
export { AgentWorker } from "./worker/agent-worker.js";
export { SearchAttributesMissingError } from "./worker/search-attribute-check.js";
export { loadWorkflowBundle, type WorkflowBundleOptions } from "./worker/workflow-bundle.js";
export {
  deltaTransportFromEnv,
  redisDeltaTransport,
  temporalDeltaTransport,
  type DeltaTransport,
} from "./stream/delta-transport.js";
export { createAgentTracing, AgentTracing, type AgentTracingOptions } from "./telemetry/agent-tracing.js";
export { tracingFromEnv } from "./telemetry/tracing-from-env.js";
export { installMetricsRuntime, metricsTelemetryOptions } from "./telemetry/metrics-runtime.js";
export type { WorkerTelemetryOptions } from "./telemetry/worker-telemetry.js";
