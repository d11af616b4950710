import { randomUUID } from "node:crypto";
import { WithStartWorkflowOperation, type Client } from "@temporalio/client";
import { WorkflowExecutionAlreadyStartedError } from "@temporalio/common";
import { DEFAULT_WORKFLOW_TASK_TIMEOUT } from "../plan/recovery-defaults.js";
import { agentTaskQueue, waitForAgentWorker } from "../runtime/agent-task-queue.js";
import { SessionError } from "./client-errors.js";
import { checkRunInputSize } from "./run-input-limit.js";
import { checkSearchAttributes } from "../worker/search-attribute-check.js";
import { isSessionBusy } from "../runtime/update-with-retry.js";
import { agentSession } from "../workflows/session/agent-session.js";
import { startRunUpdate } from "../contract/messages.js";
import type { StartRunRequest, StartRunResult } from "../contract/requests.js";
import type { SessionInput } from "../contract/session-input.js";
import { sessionCall } from "./session-call.js";
import { updateSession } from "./session-update.js";

/** How a {@link SessionLauncher} starts sessions. */
export interface LauncherOptions {
  /** The base task queue: an agent's sessions run on `<taskQueue>.<agent>`. */
  taskQueue: string;
  /** How long a start waits for a worker serving the agent; `false` does not check. */
  workerWaitMs: number | false;
  /** Whether sessions keep their search attributes (checked on the namespace before the first start). */
  searchAttributes: boolean;
  /** The largest run request or session input sent (JSON bytes). */
  maxRunInputBytes: number;
}

/** Starts session workflows: a run with its session on first use, or a new idle session (a fork). */
export class SessionLauncher {
  /** Set once the namespace's search attributes were found complete. */
  private searchAttributesChecked: Promise<void> | undefined;
  /** When each agent's queue was last seen polled. */
  private readonly workersSeen = new Map<string, number>();

  constructor(
    private readonly temporal: Client,
    private readonly options: LauncherOptions,
  ) {}

  /** The task queue of an agent's sessions. */
  taskQueueFor(agent: string): string {
    return agentTaskQueue(this.options.taskQueue, agent);
  }

  /** Queues a run in a session, starting the session if needed; a busy session gets the same update again. */
  async queueRun(sessionId: string, request: StartRunRequest & { runId: string }): Promise<StartRunResult> {
    checkRunInputSize(request, this.options.maxRunInputBytes);
    await this.checkSetup(request.agent);
    const startWorkflowOperation = new WithStartWorkflowOperation(agentSession, {
      ...this.workflowOptions(sessionId, request.agent),
      args: [this.sessionInput(sessionId, request.agent)],
      workflowIdConflictPolicy: "USE_EXISTING",
    });
    const updateId = randomUUID();
    return sessionCall(sessionId, "start run", () =>
      this.temporal.workflow
        .executeUpdateWithStart(startRunUpdate, { args: [request], updateId, startWorkflowOperation })
        .catch((error: unknown) => {
          // Refused as busy: the session runs; the same update goes again without the start (used once).
          if (!isSessionBusy(error)) throw error;
          return updateSession(this.temporal, sessionId, startRunUpdate, [request], updateId);
        }),
    );
  }

  /** Starts a new idle session with `input` added to its start input; refused when the id is taken. */
  async startIdle(input: Omit<SessionInput, "searchAttributes">): Promise<void> {
    const { sessionId, agent } = input;
    const args: [SessionInput] = [{ ...input, ...this.sessionInput(sessionId, agent) }];
    checkRunInputSize(args[0], this.options.maxRunInputBytes);
    await this.checkSetup(agent);
    await sessionCall(sessionId, "fork", () =>
      this.temporal.workflow
        .start(agentSession, { ...this.workflowOptions(sessionId, agent), args })
        .catch((error) => {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
          throw new SessionError(`fork: session '${sessionId}' already exists`, sessionId, "rejected", {
            cause: error,
            operation: "fork",
          });
        }),
    );
  }

  /** The start input of a new session. */
  private sessionInput(sessionId: string, agent: string): SessionInput {
    return { sessionId, agent, ...(this.options.searchAttributes ? {} : { searchAttributes: false }) };
  }

  /** How a session's workflow is started: its id, queue, timeouts and what the UI shows of it. */
  private workflowOptions(sessionId: string, agent: string) {
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

  /**
   * Before a start: the namespace has the search attributes (checked once), and a worker serves the agent (seen
   * within the last 30 s, else waited for up to `workerWaitMs`).
   */
  private async checkSetup(agent: string): Promise<void> {
    if (this.options.searchAttributes) await this.checkSearchAttributes();
    if (this.options.workerWaitMs === false) return;
    const taskQueue = this.taskQueueFor(agent);
    if (Date.now() - (this.workersSeen.get(taskQueue) ?? -Infinity) < 30_000) return;
    await waitForAgentWorker(this.temporal, agent, taskQueue, { timeoutMs: this.options.workerWaitMs });
    this.workersSeen.set(taskQueue, Date.now());
  }

  /** Checks the namespace's search attributes once (again after a failed check). */
  private async checkSearchAttributes(): Promise<void> {
    const { connection, options } = this.temporal;
    this.searchAttributesChecked ??= checkSearchAttributes(connection.operatorService, options.namespace);
    await this.searchAttributesChecked.catch((error: unknown) => {
      this.searchAttributesChecked = undefined;
      throw error;
    });
  }
}
