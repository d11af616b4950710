import type { Client } from "@temporalio/client";
import { AgentError } from "../kernel/vocabulary/errors.js";

/**
 * The task queue of one agent's sessions, `<base>.<agent>`: the session workflow, its `resolveAgent` activity and its
 * model and tool activities (unless a tool names its own queue) run there, so a session only reaches a worker that
 * registered its agent. `createWorker` polls one per agent; `AgentClient` starts each session on its agent's queue.
 */
export function agentTaskQueue(base: string, agent: string): string {
  return `${base}.${agent}`;
}

/** Whether a task queue is one agent's queue on a base queue. */
export function isAgentTaskQueue(base: string, taskQueue: string): boolean {
  return taskQueue.startsWith(`${base}.`) && taskQueue.length > base.length + 1;
}

/** No worker serves an agent: nothing polled its task queue in the time allowed. */
export class NoWorkerError extends AgentError {
  constructor(
    message: string,
    readonly agent: string,
    readonly taskQueue: string,
  ) {
    super(message);
  }
}

/** How long to wait for a worker, and how often to look. */
export interface WorkerWaitOptions {
  /** Give up after this long. */
  timeoutMs: number;
  /** Pause between looks. Default 250 ms. */
  intervalMs?: number;
  /** Told once, when the first look finds no worker. */
  onWaiting?: (taskQueue: string) => void;
}

/** Temporal's TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW and TaskQueueKind.TASK_QUEUE_KIND_NORMAL. */
const WORKFLOW_QUEUE = 1;
const NORMAL_KIND = 1;

/**
 * Whether a worker polls the queue's workflow tasks (the server remembers a poller for a few minutes after its last
 * poll). `undefined` when the server does not say (no permission to describe task queues): then nobody can tell.
 */
export async function hasWorkflowPoller(client: Client, taskQueue: string): Promise<boolean | undefined> {
  try {
    const described = await client.workflowService.describeTaskQueue({
      namespace: client.options.namespace,
      taskQueue: { name: taskQueue, kind: NORMAL_KIND },
      taskQueueType: WORKFLOW_QUEUE,
    });
    return (described.pollers?.length ?? 0) > 0;
  } catch {
    return undefined;
  }
}

/**
 * Waits until a worker polls the agent's task queue, or fails with a NoWorkerError that says which queue has no
 * worker and how to start one. Returns at once when the server cannot say.
 */
export async function waitForAgentWorker(
  client: Client,
  agent: string,
  taskQueue: string,
  options: WorkerWaitOptions,
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let told = false;
  for (;;) {
    const polled = await hasWorkflowPoller(client, taskQueue);
    if (polled !== false) return;
    if (Date.now() >= deadline) break;
    if (!told) options.onWaiting?.(taskQueue);
    told = true;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(options.intervalMs ?? 250, deadline - Date.now())),
    );
  }
  throw new NoWorkerError(
    `no worker serves agent '${agent}': nothing polled its task queue '${taskQueue}' (namespace ` +
      `'${client.options.namespace}') within ${options.timeoutMs} ms. Start a worker that registers '${agent}' ` +
      `(createWorker({ agents: [...] }) or 'lite-agent worker --agents <module>') with the same base task queue ` +
      `('${taskQueue.slice(0, taskQueue.length - agent.length - 1)}').`,
    agent,
    taskQueue,
  );
}
