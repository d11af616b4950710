import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import {
  Client,
  Connection,
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  type WorkflowHandle,
} from "@temporalio/client";
import type { UpdateDefinition } from "@temporalio/common";
import { withSubagentEvents } from "./runtime/subagent-events.js";
import { SUBAGENT_RUN_ID, type ForkOrigin, type SessionInput } from "./workflows/session-input.js";
import type { RunResult } from "./kernel/events.js";
import { historyToJSONObject } from "./runtime/history-json.js";
import { queryWithRetry } from "./runtime/query-with-retry.js";
import { workflowTaskFailure } from "./runtime/workflow-task-failure.js";
import { readTranscript } from "./runtime/read-transcript.js";
import { boundaryWhenStuck, isSessionBusy, updateWithRetry } from "./runtime/update-with-retry.js";
import type { ImageBlock, Message } from "./kernel/messages.js";
import { AgentError } from "./kernel/errors.js";
import { DEFAULT_TASK_QUEUE, loadConnectionConfig } from "./runtime/connection-config.js";
import { DEFAULT_WORKFLOW_TASK_TIMEOUT } from "./common/recovery-defaults.js";
import { agentTaskQueue, waitForAgentWorker } from "./runtime/agent-task-queue.js";
import { listSessions, type SessionListing } from "./runtime/list-sessions.js";

export type { SessionListing } from "./runtime/list-sessions.js";
import { checkSearchAttributes } from "./runtime/search-attribute-check.js";
import { SessionError, toSessionError } from "./runtime/client-errors.js";
import { checkRunInputSize, defaultRunInputLimit } from "./runtime/run-input-limit.js";
import {
  runEventStream,
  type DurableEvent,
  type EventStreamPosition,
  type ExternalDeltaSource,
} from "./runtime/run-event-stream.js";
import { redisDeltaSource } from "./stream/redis-delta-source.js";
import { WorkflowExecutionAlreadyStartedError } from "@temporalio/common";
import { withPayloadStorage, type PayloadStorageOption } from "./storage/payload-storage.js";
import { withPayloadEncryption, type PayloadEncryptionOption } from "./encryption/payload-encryption.js";
import { agentSession } from "./workflows/agent-session.js";
import type { AgentTracing } from "./telemetry/agent-tracing.js";
import { clientTracingInterceptors } from "./telemetry/client-tracing.js";
import { tracingFromEnv } from "./telemetry/tracing-from-env.js";
import {
  answerQuestionUpdate,
  cancelRunUpdate,
  closeSessionUpdate,
  decideToolCallUpdate,
  interruptUpdate,
  queueSteerUpdate,
  sessionStatusQuery,
  startRunUpdate,
  type SessionStatus,
  type StartRunResult,
} from "./workflows/messages.js";
import type { UserAnswer } from "./kernel/permission/types.js";

/** How long `describe` waits for a subagent session's own status before listing it without its approvals. */
const CHILD_STATUS_DEADLINE_MS = 3_000;

/** Options of a durable run. */
export interface DurableRunOptions {
  /** The session to run in; created on first use. Default: a new session. */
  sessionId?: string;
  /** Makes a retried start idempotent. Default: a new id. */
  runId?: string;
  images?: ImageBlock[];
}

/** A started run: where its events are. */
export interface StartedRun extends StartRunResult {
  sessionId: string;
}

/** Options of {@link AgentClient.fork}. */
export interface SessionForkOptions {
  /** The turn of the source session (counted across its runs, from 1) whose end state the fork starts with. */
  atTurn: number;
  /** The new session's id. Default: a new id. */
  newSessionId?: string;
  /** The agent the fork runs (default the source session's): compare agents on a real conversation. */
  agent?: string;
  /** The model the fork's runs use instead of the agent's (the workers must have a provider for it). */
  model?: string;
  /**
   * The workflow-safe modules of the source agent's own middleware (`defineMiddleware`), which reading its history
   * replays: the same modules its workers bundle (`workflowModulesOf(agents)` lists them). Not needed for agents
   * whose middleware are built-ins; when needed and missing, the fork is refused with a message that says so.
   */
  workflowModules?: string[];
}

/** A session made by {@link AgentClient.fork}. */
export interface ForkedSession {
  sessionId: string;
  agent: string;
  forkedFrom: ForkOrigin;
  /** How many messages its conversation starts with. */
  messageCount: number;
}

/** Options of an AgentClient. */
export interface AgentClientOptions {
  address?: string;
  namespace?: string;
  /** The base task queue (default `lite-agent`): an agent's sessions run on `<taskQueue>.<agent>`, like the worker's. */
  taskQueue?: string;
  /**
   * How long `start` waits for a worker serving the agent (polling its task queue) before it fails with a
   * `NoWorkerError`. Default 10 s; 0 fails at once; `false` skips the check (the run then waits in the queue).
   */
  workerWaitMs?: number | false;
  /**
   * Keep the sessions' search attributes current (default true). The first start checks that the namespace has
   * them and fails with the commands that create them; false starts sessions that upsert none.
   */
  searchAttributes?: boolean;
  /**
   * Where live model output comes from: the session itself (`"temporal"`, read with the `readStream` query),
   * Redis Streams (`{ redisUrl }`), or `"auto"` (default): Redis when `REDIS_URL` is set, like the worker.
   */
  deltas?: "auto" | "temporal" | { redisUrl: string } | ExternalDeltaSource;
  /**
   * The largest run request `start` sends (JSON bytes); a larger one fails at once with a `RunInputTooLargeError`
   * naming the size and the limit. Default 1 MiB with payloads inline (`RUN_INPUT_LIMIT_BYTES`), 32 MiB with
   * external payload storage (`RUN_INPUT_LIMIT_WITH_STORAGE_BYTES`).
   */
  maxRunInputBytes?: number;
  /**
   * Where large payloads are stored (`connect` only): the same setting as the workers' (default the environment's,
   * `LITE_AGENT_STORAGE`; see docs/operations.md), or the client cannot read what they stored by reference.
   */
  storage?: PayloadStorageOption;
  /**
   * Payload encryption (`connect` only): the same keys as the workers' (default the environment's,
   * `LITE_AGENT_ENCRYPTION_KEYS` / `LITE_AGENT_ENCRYPTION_KEY_FILE`; off when unset), or this client cannot read
   * what they wrote.
   */
  encryption?: PayloadEncryptionOption;
  /**
   * Who this client decides and answers as (`approve`, `deny`, `answer`), unless a call names another actor: the
   * application's signed-in user. Agents with `permission.approvers` refuse decisions from anyone they do not name.
   */
  actor?: string;
  /**
   * The workflow-safe modules of the agents' own middleware (`defineMiddleware`): the same modules the workers bundle
   * (`workflowModulesOf(agents)` lists them). A reader that fell behind what a session keeps in memory reads the
   * events it missed by replaying the session's history, which runs them; not needed for agents whose middleware are
   * built-ins (when needed and missing, such a read fails with a message that says so).
   */
  workflowModules?: string[];

  /**
   * OpenTelemetry tracing of this client's calls (`connect` only): an {@link AgentTracing}, `false` for none, or by
   * default the environment's (`OTEL_EXPORTER_OTLP_ENDPOINT`; see docs/operations.md).
   */
  tracing?: AgentTracing | false;
}

function deltaSource(option: AgentClientOptions["deltas"] = "auto"): ExternalDeltaSource | undefined {
  if (option === "temporal") return undefined;
  if (option === "auto") return process.env.REDIS_URL ? redisDeltaSource(process.env.REDIS_URL) : undefined;
  return "redisUrl" in option ? redisDeltaSource(option.redisUrl) : option;
}

/**
 * Runs agents durably: each session is one workflow (started on first use), each run a queued unit inside it.
 * @example
 * const client = await AgentClient.connect();
 * for await (const event of client.run("researcher", "summarise the repo")) console.log(event.type);
 */
export class AgentClient {
  readonly taskQueue: string;
  private readonly externalDeltas: ExternalDeltaSource | undefined;
  /** Aborted by `close()`: ends the event streams still being read. */
  private readonly closing = new AbortController();
  private readonly maxRunInputBytes: number;
  private readonly workerWaitMs: number | false;
  private readonly searchAttributes: boolean;
  /** Set once the namespace's search attributes were found complete. */
  private searchAttributesChecked: Promise<void> | undefined;
  /** When each agent's queue was last seen polled. */
  private readonly workersSeen = new Map<string, number>();
  /** Who decides and answers when a call names no actor (the `actor` option). */
  readonly actor: string | undefined;
  private readonly workflowModules: string[] | undefined;

  constructor(
    readonly temporal: Client,
    options: Pick<
      AgentClientOptions,
      | "taskQueue"
      | "deltas"
      | "workerWaitMs"
      | "searchAttributes"
      | "maxRunInputBytes"
      | "actor"
      | "workflowModules"
    > = {},
  ) {
    // Every event stream being read listens on it (and stops listening when it ends): one client may follow any
    // number of sessions at once, which is no leak, so Node's warning past ten listeners does not apply.
    setMaxListeners(0, this.closing.signal);
    this.actor = options.actor?.trim() || undefined;
    this.taskQueue = options.taskQueue ?? DEFAULT_TASK_QUEUE;
    this.externalDeltas = deltaSource(options.deltas);
    const externalStorage = temporal.options.loadedDataConverter.externalStorage !== undefined;
    this.maxRunInputBytes = options.maxRunInputBytes ?? defaultRunInputLimit(externalStorage);
    this.workerWaitMs = options.workerWaitMs ?? 10_000;
    this.searchAttributes = options.searchAttributes !== false;
    this.workflowModules = options.workflowModules;
  }

  /** The task queue of an agent's sessions. */
  taskQueueFor(agent: string): string {
    return agentTaskQueue(this.taskQueue, agent);
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
    const interceptors = clientTracingInterceptors(
      options.tracing === false ? undefined : (options.tracing ?? tracingFromEnv()),
    );
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

  /** Queues a run in a session (starting the session if needed) and returns where its events will be. */
  async start(
    agent: string,
    input: string | Message[],
    options: DurableRunOptions = {},
  ): Promise<StartedRun> {
    const sessionId = options.sessionId ?? `session-${randomUUID()}`;
    const runId = options.runId ?? randomUUID();
    checkRunInputSize({ runId, agent, input, images: options.images }, this.maxRunInputBytes);
    await this.checkSetup(agent);
    const startWorkflowOperation = new WithStartWorkflowOperation(agentSession, {
      ...this.sessionWorkflowOptions(sessionId, agent),
      args: [this.sessionInput(sessionId, agent)],
      workflowIdConflictPolicy: "USE_EXISTING",
    });
    try {
      const request = { runId, agent, input, ...(options.images ? { images: options.images } : {}) };
      const updateId = randomUUID();
      const started = await this.temporal.workflow
        .executeUpdateWithStart(startRunUpdate, { args: [request], updateId, startWorkflowOperation })
        .catch((error: unknown) => {
          // Refused as busy: the session runs; the same update goes again without the start (used once).
          if (!isSessionBusy(error)) throw error;
          return this.update(sessionId, startRunUpdate, [request], updateId);
        });
      return { ...started, sessionId };
    } catch (error) {
      throw toSessionError(error, sessionId, "start run");
    }
  }

  /**
   * Forks a session at the end of one of its turns: a new session whose conversation is the source's at the end of
   * turn `atTurn` (read from the source's workflow history, across continue-as-new, by replaying it: nothing of the
   * source runs again, and the source is not touched), optionally on another agent or model. It starts idle; send
   * it a message with `start`/`run`/`send` and its `sessionId`. Its status shows `forkedFrom`. Only turns that ended
   * can be forked: a turn still running or waiting for an approval or answer is out of range.
   * @example
   * const fork = await client.fork("session-1", { atTurn: 4, model: "gpt-4.1" });
   * await client.send(fork.agent, "try another way", { sessionId: fork.sessionId });
   */
  async fork(sessionId: string, options: SessionForkOptions): Promise<ForkedSession> {
    const { atTurn } = options;
    if (!Number.isInteger(atTurn) || atTurn < 1)
      throw new AgentError(`fork: 'atTurn' must be a whole number of 1 or more (got ${String(atTurn)})`);
    const { conversationAtTurn, ForkPointError } = await import("./runtime/conversation-at-turn.js");
    let point;
    try {
      point = await conversationAtTurn(this.temporal, sessionId, atTurn, {
        dataConverter: this.temporal.options.dataConverter,
        workflowModules: options.workflowModules ?? this.workflowModules ?? [],
      });
    } catch (error) {
      if (error instanceof ForkPointError)
        throw new SessionError(`fork: ${error.message}`, sessionId, "rejected", { operation: "fork" });
      throw toSessionError(error, sessionId, "fork");
    }
    const agent = options.agent ?? point.agent;
    const newSessionId = options.newSessionId ?? `session-${randomUUID()}`;
    const forkedFrom = { sessionId, turn: atTurn };
    const input: SessionInput = {
      ...this.sessionInput(newSessionId, agent),
      seed: point.messages,
      forkedFrom,
      ...(options.model ? { model: options.model } : {}),
    };
    checkRunInputSize(input, this.maxRunInputBytes);
    await this.checkSetup(agent);
    try {
      await this.temporal.workflow.start(agentSession, {
        ...this.sessionWorkflowOptions(newSessionId, agent),
        args: [input],
      });
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError)
        throw new SessionError(`fork: session '${newSessionId}' already exists`, newSessionId, "rejected", {
          cause: error,
          operation: "fork",
        });
      throw toSessionError(error, newSessionId, "fork");
    }
    return { sessionId: newSessionId, agent, forkedFrom, messageCount: point.messages.length };
  }

  /** The start input of a new session. */
  private sessionInput(sessionId: string, agent: string): SessionInput {
    return { sessionId, agent, ...(this.searchAttributes ? {} : { searchAttributes: false }) };
  }

  /** How a session's workflow is started: its id, queue, timeouts and what the UI shows of it. */
  private sessionWorkflowOptions(sessionId: string, agent: string) {
    return {
      workflowId: sessionId,
      taskQueue: this.taskQueueFor(agent),
      workflowIdReusePolicy: "REJECT_DUPLICATE" as const,
      // Explicit (Temporal's default): a replay of a whole execution on a cold worker must fit in it.
      workflowTaskTimeout: DEFAULT_WORKFLOW_TASK_TIMEOUT,
      memo: { agent },
      // The header of the UI's workflow page; the live status and pending approvals are its Current Details.
      staticSummary: `lite-agent session · agent ${agent} · status, pending approvals: User Metadata → Current Details`,
    };
  }

  /** Starts a run and yields its events as they happen; returns the run's result. */
  async *run(
    agent: string,
    input: string | Message[],
    options: DurableRunOptions = {},
  ): AsyncGenerator<DurableEvent, RunResult> {
    const started = await this.start(agent, input, options);
    return yield* this.events(started.sessionId, started.runId, { fromOffset: started.offset });
  }

  /** Runs to the end and returns the result. */
  async send(agent: string, input: string | Message[], options: DurableRunOptions = {}): Promise<RunResult> {
    const events = this.run(agent, input, options);
    for (;;) {
      const next = await events.next();
      if (next.done) return next.value;
    }
  }

  /**
   * The events of one run from an offset, each once, in order: after a disconnect, resume from the last offset seen
   * plus one (and the last `deltaId` seen) and nothing is missed or repeated. A reader behind what the session keeps
   * in memory reads the rest from its history; only events whose history is gone come as one `events_lost`. Ends
   * with the run's `done`.
   */
  async *events(
    sessionId: string,
    runId: string,
    position: EventStreamPosition = {},
  ): AsyncGenerator<DurableEvent, RunResult> {
    let result: RunResult | undefined;
    try {
      const own = runEventStream(
        this.temporal,
        sessionId,
        runId,
        position,
        this.externalDeltas,
        this.closing.signal,
        {
          dataConverter: this.temporal.options.dataConverter,
          ...(this.workflowModules ? { workflowModules: this.workflowModules } : {}),
        },
      );
      result = yield* withSubagentEvents(own, (child) => this.subagentEvents(child));
    } catch (error) {
      throw toSessionError(error, sessionId, "read events");
    }
    if (!result)
      throw new SessionError(
        `session '${sessionId}' ended before run '${runId}' finished`,
        sessionId,
        "closed",
      );
    return result;
  }

  /** A subagent session's task run, once the child workflow exists (it starts just after its `subagent` event). */
  private async *subagentEvents(sessionId: string): AsyncGenerator<DurableEvent, RunResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.handle(sessionId).describe();
        break;
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError) || attempt >= 100) throw error;
        await sleep(100, this.closing.signal);
      }
    }
    return yield* this.events(sessionId, SUBAGENT_RUN_ID);
  }

  /** Queues a steering message for the next turn start. `id` makes retries idempotent. */
  async steer(sessionId: string, content: string | Message, options: { id?: string } = {}): Promise<void> {
    await this.queueSteer(sessionId, "steer", content, options.id);
  }

  /** Queues a message for when the model would stop. */
  async followUp(sessionId: string, content: string | Message, options: { id?: string } = {}): Promise<void> {
    await this.queueSteer(sessionId, "followUp", content, options.id);
  }

  /** Allows a pending tool call. Rejected with the reason when the call is unknown or already decided. */
  async approve(
    sessionId: string,
    callId: string,
    options: { actor?: string; reason?: string } = {},
  ): Promise<void> {
    await this.decide(sessionId, { callId, decision: "allow", ...this.withActor(options) });
  }

  /** Denies a pending tool call; the model gets `Error: denied by user[: reason]`. */
  async deny(
    sessionId: string,
    callId: string,
    options: { actor?: string; reason?: string } = {},
  ): Promise<void> {
    await this.decide(sessionId, { callId, decision: "deny", ...this.withActor(options) });
  }

  /** Answers a pending question (`ask_user`): free text, or the selected options. */
  async answer(
    sessionId: string,
    callId: string,
    answer: string | UserAnswer,
    options: { actor?: string } = {},
  ): Promise<void> {
    const body = typeof answer === "string" ? { text: answer } : answer;
    try {
      const target = await this.decisionTarget(sessionId, callId, "pendingQuestions");
      await this.update(target, answerQuestionUpdate, [{ callId, ...body, ...this.withActor(options) }]);
    } catch (error) {
      throw toSessionError(error, sessionId, "answer");
    }
  }

  /**
   * Cancels the in-flight model call and re-plans at once with the queued steers (and `message`, steered in
   * first). Returns whether a model call was interrupted.
   */
  async interrupt(sessionId: string, message?: string): Promise<boolean> {
    try {
      const request = message === undefined ? { id: randomUUID() } : { id: randomUUID(), content: message };
      return (await this.update(sessionId, interruptUpdate, [request])).interrupted;
    } catch (error) {
      throw toSessionError(error, sessionId, "interrupt");
    }
  }

  /** The session's current workflow history, as Temporal's JSON (for `replay`, or to attach to a bug report). */
  async history(sessionId: string): Promise<unknown> {
    try {
      const history = await this.handle(sessionId).fetchHistory();
      return historyToJSONObject(history);
    } catch (error) {
      throw toSessionError(error, sessionId, "history");
    }
  }

  /** Cancels the running run (or the given run, running or queued); returns the ids cancelled. */
  async cancel(sessionId: string, options: { runId?: string; reason?: string } = {}): Promise<string[]> {
    try {
      const { cancelled } = await this.update(sessionId, cancelRunUpdate, [options]);
      return cancelled;
    } catch (error) {
      throw toSessionError(error, sessionId, "cancel");
    }
  }

  /** Closes a session: queued runs still finish, then the workflow completes; no new runs or steers are accepted. */
  async closeSession(sessionId: string): Promise<void> {
    try {
      await this.update(sessionId, closeSessionUpdate, []);
    } catch (error) {
      throw toSessionError(error, sessionId, "close");
    }
  }

  /**
   * The session's status: current run and turn, queue, usage, stream offset. The approvals and questions of its
   * running subagents are listed with theirs (each with the subagent's `sessionId`); answer them through either.
   */
  async describe(sessionId: string): Promise<SessionStatus> {
    const status = await this.ownStatus(sessionId);
    const subagents = status.subagents ?? [];
    const children = await Promise.all(subagents.map((subagent) => this.childStatus(subagent.sessionId)));
    for (const [index, subagent] of subagents.entries()) {
      const child = children[index];
      if (!child) continue;
      const from = { sessionId: subagent.sessionId };
      status.pendingApprovals.push(...child.pendingApprovals.map((approval) => ({ ...approval, ...from })));
      status.pendingQuestions.push(...child.pendingQuestions.map((question) => ({ ...question, ...from })));
      if (status.status === "running" && child.status.startsWith("awaiting_")) status.status = child.status;
    }
    return status;
  }

  private async ownStatus(sessionId: string): Promise<SessionStatus> {
    try {
      const handle = this.handle(sessionId);
      return await queryWithRetry(
        () => handle.query(sessionStatusQuery),
        () => workflowTaskFailure(handle),
      );
    } catch (error) {
      throw toSessionError(error, sessionId, "describe");
    }
  }

  /**
   * A subagent session's status, or undefined when it cannot say soon: a child whose worker is gone (or that has
   * not started yet) must not hold its parent's `describe` for the server's query timeout.
   */
  private childStatus(sessionId: string): Promise<SessionStatus | undefined> {
    const deadline = Date.now() + CHILD_STATUS_DEADLINE_MS;
    return this.temporal.connection
      .withDeadline(deadline, () => this.handle(sessionId).query(sessionStatusQuery))
      .catch(() => undefined);
  }

  /**
   * Where a decision on a call goes: the session, or the running subagent session the call waits in. When neither
   * lists it, the session (whose validator says why it cannot be decided).
   */
  private async decisionTarget(
    sessionId: string,
    callId: string,
    kind: "pendingApprovals" | "pendingQuestions",
  ): Promise<string> {
    const status = await this.ownStatus(sessionId).catch(() => undefined);
    if (!status?.subagents?.length || status[kind].some((pending) => pending.callId === callId))
      return sessionId;
    for (const subagent of status.subagents) {
      const child = await this.childStatus(subagent.sessionId);
      if (child?.[kind].some((pending) => pending.callId === callId)) return subagent.sessionId;
    }
    return sessionId;
  }

  /**
   * The session's whole transcript, however often it compacted: the segments its workers archived before each
   * compaction (read through this client's payload storage, which must be the workers'), then the messages of the
   * current conversation not archived yet. Every message once, in order; summaries are not part of it.
   */
  async transcript(sessionId: string): Promise<Message[]> {
    try {
      const { externalStorage, payloadCodecs } = this.temporal.options.loadedDataConverter;
      return await readTranscript(this.handle(sessionId), externalStorage, payloadCodecs);
    } catch (error) {
      throw toSessionError(error, sessionId, "transcript");
    }
  }

  /** Lists sessions through the visibility store; `query` is a Temporal list filter (e.g. `AgentStatus = "awaiting_approval"`). */
  async *list(options: { query?: string } = {}): AsyncGenerator<SessionListing> {
    // Each agent's sessions have their own task queue, and SQL visibility stores have no prefix match on it.
    const base = `WorkflowType = "agentSession"`;
    const query = options.query ? `${base} AND (${options.query})` : base;
    yield* listSessions(this.temporal, this.taskQueue, query);
  }

  /** The workflow handle of a session. */
  handle(sessionId: string): WorkflowHandle<typeof agentSession> {
    return this.temporal.workflow.getHandle<typeof agentSession>(sessionId);
  }

  /**
   * Before a start: the namespace has the search attributes (checked once), and a worker serves the agent (seen
   * within the last 30 s, else waited for up to `workerWaitMs`).
   */
  private async checkSetup(agent: string): Promise<void> {
    if (this.searchAttributes) {
      const namespace = this.temporal.options.namespace;
      this.searchAttributesChecked ??= checkSearchAttributes(
        this.temporal.connection.operatorService,
        namespace,
      );
      await this.searchAttributesChecked.catch((error: unknown) => {
        this.searchAttributesChecked = undefined;
        throw error;
      });
    }
    if (this.workerWaitMs === false) return;
    const taskQueue = this.taskQueueFor(agent);
    if (Date.now() - (this.workersSeen.get(taskQueue) ?? -Infinity) < 30_000) return;
    await waitForAgentWorker(this.temporal, agent, taskQueue, { timeoutMs: this.workerWaitMs });
    this.workersSeen.set(taskQueue, Date.now());
  }

  /** The call's options with the client's actor when the call names none. */
  private withActor<T extends { actor?: string }>(options: T): T {
    return options.actor === undefined && this.actor !== undefined
      ? { ...options, actor: this.actor }
      : options;
  }

  private async decide(
    sessionId: string,
    request: { callId: string; decision: "allow" | "deny"; actor?: string; reason?: string },
  ): Promise<void> {
    try {
      const target = await this.decisionTarget(sessionId, request.callId, "pendingApprovals");
      await this.update(target, decideToolCallUpdate, [request]);
    } catch (error) {
      throw toSessionError(error, sessionId, request.decision === "allow" ? "approve" : "deny");
    }
  }

  /**
   * Sends an update to the session (or child session) `target` with {@link updateWithRetry}: again while the
   * session refuses it as busy, with a `taskBoundary` signal when two refusals came with no new event between them.
   */
  private update<Ret, Args extends unknown[]>(
    target: string,
    definition: UpdateDefinition<Ret, Args>,
    args: Args,
    updateId?: string,
  ): Promise<Ret> {
    const handle = this.handle(target);
    return updateWithRetry(
      // The SDK types an update's arguments by two overloads (none, or at least one); any list goes through as is.
      (id) =>
        handle.executeUpdate(definition as unknown as UpdateDefinition<Ret, [unknown]>, {
          args: args as unknown as [unknown],
          updateId: id,
        }),
      boundaryWhenStuck(handle),
      updateId,
    );
  }

  private async queueSteer(
    sessionId: string,
    kind: "steer" | "followUp",
    content: string | Message,
    id: string = randomUUID(),
  ): Promise<void> {
    if (typeof content === "string" && content.trim() === "")
      throw new AgentError(`${kind}: the message is empty`);
    try {
      await this.update(sessionId, queueSteerUpdate, [{ id, kind, content }]);
    } catch (error) {
      throw toSessionError(error, sessionId, kind);
    }
  }
}

export { SessionError } from "./runtime/client-errors.js";
export {
  RUN_INPUT_LIMIT_BYTES,
  RUN_INPUT_LIMIT_WITH_STORAGE_BYTES,
  RunInputTooLargeError,
} from "./runtime/run-input-limit.js";
export { NoWorkerError } from "./runtime/agent-task-queue.js";
export { SearchAttributesMissingError } from "./runtime/search-attribute-check.js";
export type { DurableEvent, EventStreamPosition, ExternalDeltaSource } from "./runtime/run-event-stream.js";
export type { SessionStatus } from "./workflows/messages.js";
export { createAgentTracing, AgentTracing, type AgentTracingOptions } from "./telemetry/agent-tracing.js";
export { tracingFromEnv } from "./telemetry/tracing-from-env.js";
