import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { Client, Connection } from "@temporalio/client";
import type { RunResult } from "../kernel/vocabulary/events.js";
import type { Message } from "../kernel/vocabulary/messages.js";
import { withPayloadEncryption } from "../encryption/payload-encryption.js";
import { DEFAULT_TASK_QUEUE, loadConnectionConfig } from "../runtime/connection-config.js";
import { listSessions, type SessionListing } from "./list-sessions.js";
import type { DurableEvent } from "./events/run-event-stream.js";
import { defaultRunInputLimit } from "./run-input-limit.js";
import { withPayloadStorage } from "../storage/payload-storage.js";
import { clientTracingInterceptors } from "../telemetry/client-tracing.js";
import { tracingFromEnv } from "../telemetry/tracing-from-env.js";
import type { ClientContext } from "./client-context.js";
import { deltaSource, type AgentClientOptions, type AgentClientSettings } from "./client-options.js";
import type { DurableRunOptions, StartedRun } from "./run-options.js";
import { SessionHandle } from "./session-handle.js";
import { SessionLauncher } from "./session-launcher.js";

/**
 * Runs agents durably: each session is one workflow (started on first use), each run a queued unit inside it;
 * `session(id)` drives one session.
 * @example for await (const event of client.run("researcher", "summarise the repo")) console.log(event.type);
 */
export class AgentClient {
  readonly taskQueue: string;
  /** Who decides and answers when a call names no actor (the `actor` option). */
  readonly actor: string | undefined;
  /** Aborted by `close()`: ends the event streams still being read. */
  private readonly closing = new AbortController();
  private readonly context: ClientContext;

  constructor(
    readonly temporal: Client,
    options: AgentClientSettings = {},
  ) {
    // Every event stream being read listens on it (and stops listening when it ends): one client may follow any
    // number of sessions at once, which is no leak, so Node's warning past ten listeners does not apply.
    setMaxListeners(0, this.closing.signal);
    this.actor = options.actor?.trim() || options.signer?.actor || undefined;
    this.taskQueue = options.taskQueue ?? DEFAULT_TASK_QUEUE;
    const externalStorage = temporal.options.loadedDataConverter.externalStorage !== undefined;
    const launcher = new SessionLauncher(temporal, {
      taskQueue: this.taskQueue,
      workerWaitMs: options.workerWaitMs ?? 10_000,
      searchAttributes: options.searchAttributes !== false,
      maxRunInputBytes: options.maxRunInputBytes ?? defaultRunInputLimit(externalStorage),
    });
    this.context = {
      temporal,
      launcher,
      actor: this.actor,
      signer: options.signer,
      workflowModules: options.workflowModules,
      deltas: deltaSource(options.deltas),
      closing: this.closing.signal,
    };
  }

  /** Connects with the environment's settings (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TLS, API key). */
  static async connect(options: AgentClientOptions = {}): Promise<AgentClient> {
    const config = loadConnectionConfig(options);
    // The SDK's own default for large histories sets a key grpc-js ignores; this one it reads.
    const channelArgs = { "grpc.max_receive_message_length": 128 * 1024 * 1024 };
    const connection = await Connection.connect({ ...config.connectionOptions, channelArgs });
    const dataConverter = withPayloadStorage(
      withPayloadEncryption(undefined, options.encryption),
      options.storage,
    );
    const tracing = options.tracing === false ? undefined : (options.tracing ?? (await tracingFromEnv()));
    const interceptors = clientTracingInterceptors(tracing);
    const client = new Client({
      connection,
      namespace: config.namespace,
      dataConverter,
      ...(interceptors ? { interceptors } : {}),
    });
    return new AgentClient(client, options);
  }

  /** Closes the connection to Temporal; event streams still being read end with an error. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.temporal.connection.close();
  }

  /** The task queue of an agent's sessions. */
  taskQueueFor(agent: string): string {
    return this.context.launcher.taskQueueFor(agent);
  }

  /** One session, new or existing: its runs, events, steering, decisions and status. No call is made yet. */
  session(sessionId: string): SessionHandle {
    return new SessionHandle(this.context, sessionId);
  }

  /** Queues a run of `agent` in a session (a new one unless `sessionId`); returns where its events will be. */
  start(agent: string, input: string | Message[], options: DurableRunOptions = {}): Promise<StartedRun> {
    return this.sessionOf(options).start(input, { ...options, agent });
  }

  /** Starts a run and yields its events as they happen; returns the run's result. */
  run(
    agent: string,
    input: string | Message[],
    options: DurableRunOptions = {},
  ): AsyncGenerator<DurableEvent, RunResult> {
    return this.sessionOf(options).run(input, { ...options, agent });
  }

  /** Runs to the end and returns the result. */
  send(agent: string, input: string | Message[], options: DurableRunOptions = {}): Promise<RunResult> {
    return this.sessionOf(options).send(input, { ...options, agent });
  }

  /** Lists sessions through the visibility store; `query` is a Temporal list filter (e.g. `AgentStatus = "awaiting_approval"`). */
  async *list(options: { query?: string } = {}): AsyncGenerator<SessionListing> {
    // Each agent's sessions have their own task queue, and SQL visibility stores have no prefix match on it.
    const base = `WorkflowType = "agentSession"`;
    const query = options.query ? `${base} AND (${options.query})` : base;
    yield* listSessions(this.temporal, this.taskQueue, query);
  }

  /** The session a run goes to: the one named, else a new one. */
  private sessionOf(options: DurableRunOptions): SessionHandle {
    return this.session(options.sessionId ?? `session-${randomUUID()}`);
  }
}
