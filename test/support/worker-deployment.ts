import type { Client, Connection } from "@temporalio/client";
import temporalProto from "@temporalio/proto";
import { wakeSignal } from "../../src/contract/messages.js";

// Worker deployment versions on the suite's dev server: making a build current, and reading which build each
// execution of a session runs on.

const PROPAGATED =
  temporalProto.temporal.api.enums.v1.RoutingConfigUpdateState.ROUTING_CONFIG_UPDATE_STATE_COMPLETED;

/** Where a deployment lives: the connection, the namespace and the deployment's name. */
export interface Deployment {
  connection: Connection;
  namespace: string;
  deploymentName: string;
}

/** How long a routing change may take on a loaded two-core machine before a test says which step stalled. */
const ROUTING_PATIENCE_MS = 180_000;

/**
 * Makes `build` the deployment's current version, once the server knows it (its worker polled), and waits until
 * the change reached the task queues (before that, a workflow task can still be told the old target).
 */
export async function setCurrent(deployment: Deployment, build: string): Promise<void> {
  const { connection, namespace, deploymentName } = deployment;
  await untilAccepted(`make ${build} current in ${deploymentName}`, () =>
    connection.workflowService.setWorkerDeploymentCurrentVersion({
      namespace,
      deploymentName,
      buildId: build,
      identity: "lite-agent test",
    }),
  );
  await untilPropagated(deployment, build, `${build} current`, (routing) => routing.current === build);
}

/** Ramps `build` to `percentage` % and waits until the change reached the task queues, as {@link setCurrent}. */
export async function setRamping(deployment: Deployment, build: string, percentage: number): Promise<void> {
  const { connection, namespace, deploymentName } = deployment;
  await untilAccepted(`ramp ${build} to ${percentage} % in ${deploymentName}`, () =>
    connection.workflowService.setWorkerDeploymentRampingVersion({
      namespace,
      deploymentName,
      buildId: build,
      percentage,
      identity: "lite-agent test",
    }),
  );
  await untilPropagated(
    deployment,
    build,
    `${build} ramping at ${percentage} %`,
    (routing) => routing.ramping === build && routing.percentage === percentage,
  );
}

/**
 * Asks until the server accepts: it refuses a version its worker has not polled yet, and a change while the
 * deployment's previous one is still in flight. Throws the last refusal, naming the change, after the patience.
 */
async function untilAccepted(change: string, ask: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + ROUTING_PATIENCE_MS;
  for (;;) {
    try {
      await ask();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`could not ${change} in ${ROUTING_PATIENCE_MS / 1000} s: ${String(error)}`, {
          cause: error,
        });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Which builds a routing sends new work to: from the deployment's routing config or from one task queue. */
interface Routing {
  current: string | undefined;
  ramping: string | undefined;
  percentage: number;
}

/** The routing fields a deployment's routing config and a task queue's versioning info both carry. */
type RoutingFields =
  | temporalProto.temporal.api.deployment.v1.IRoutingConfig
  | temporalProto.temporal.api.taskqueue.v1.ITaskQueueVersioningInfo
  | null
  | undefined;

const routingOf = (fields: RoutingFields): Routing => ({
  current: fields?.currentDeploymentVersion?.buildId ?? undefined,
  ramping: fields?.rampingDeploymentVersion?.buildId ?? undefined,
  percentage: fields?.rampingVersionPercentage ?? 0,
});

/**
 * After this long with the routing changed but its update still "in progress", the task queues are asked directly.
 * On a loaded CI machine the dev server once kept a first `current` in progress for minutes (its bookkeeping of a
 * propagation, not the data: the tests' wakes and assertions then show where work actually runs).
 */
const PROPAGATION_STALL_MS = 45_000;

/**
 * Waits until the deployment's routing satisfies `routed` and the change reached every task queue: the server
 * reports the update completed, or, past {@link PROPAGATION_STALL_MS}, every task queue of `build` routes as `routed`.
 */
async function untilPropagated(
  deployment: Deployment,
  build: string,
  what: string,
  routed: (routing: Routing) => boolean,
): Promise<void> {
  const { connection, namespace, deploymentName } = deployment;
  const started = Date.now();
  for (;;) {
    const { workerDeploymentInfo: info } = await connection.workflowService.describeWorkerDeployment({
      namespace,
      deploymentName,
    });
    const changed = routed(routingOf(info?.routingConfig));
    if (changed && info?.routingConfigUpdateState === PROPAGATED) return;
    const waited = Date.now() - started;
    if (changed && waited > PROPAGATION_STALL_MS && (await everyQueueRoutes(deployment, build, routed))) {
      console.warn(`${deploymentName}: ${what} reached every task queue; the server still says in progress`);
      return;
    }
    if (waited > ROUTING_PATIENCE_MS)
      throw new Error(
        `${deploymentName}: ${what} did not reach the task queues in ${ROUTING_PATIENCE_MS / 1000} s ` +
          `(routing ${JSON.stringify(info?.routingConfig)}, update state ${info?.routingConfigUpdateState})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether every task queue `build`'s workers poll routes new work as `routed`, by the queue's own description. */
async function everyQueueRoutes(
  { connection, namespace, deploymentName }: Deployment,
  build: string,
  routed: (routing: Routing) => boolean,
): Promise<boolean> {
  const { versionTaskQueues } = await connection.workflowService.describeWorkerDeploymentVersion({
    namespace,
    deploymentVersion: { deploymentName, buildId: build },
  });
  if (!versionTaskQueues?.length) return false;
  for (const queue of versionTaskQueues) {
    const described = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: queue.name },
      taskQueueType: queue.type,
    });
    if (!routed(routingOf(described.versioningInfo))) return false;
  }
  return true;
}

/** The build the session's latest execution is pinned to (or runs on), from the server's versioning info. */
export async function buildOf(temporal: Client, sessionId: string): Promise<string | undefined> {
  const described = await temporal.workflow.getHandle(sessionId).describe();
  const info = described.raw.workflowExecutionInfo?.versioningInfo;
  return info?.deploymentVersion?.buildId ?? undefined;
}

/**
 * Wakes the session (the `wake` signal) until its latest execution runs on `build`. Again every 2 s: a new current
 * version takes a few seconds to reach every task queue after the server reports it propagated, and a workflow task
 * in that time is still told the old target (docs/operations.md, "Rollout"), so an early wake may move nothing.
 */
export async function wakeUntilOn(temporal: Client, sessionId: string, build: string): Promise<void> {
  for (;;) {
    await temporal.workflow.getHandle(sessionId).signal(wakeSignal);
    for (let poll = 0; poll < 20; poll++) {
      if ((await buildOf(temporal, sessionId)) === build) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Every execution of the session (its continue-as-new chain), oldest first, with the build each ran on. */
export async function executionsOf(
  temporal: Client,
  sessionId: string,
): Promise<{ runId: string; build: string | undefined }[]> {
  const runs: { runId: string; build: string | undefined; start: number }[] = [];
  for await (const execution of temporal.workflow.list({ query: `WorkflowId = '${sessionId}'` })) {
    const described = await temporal.workflow.getHandle(sessionId, execution.runId).describe();
    const build =
      described.raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? undefined;
    runs.push({ runId: execution.runId, build, start: execution.startTime.getTime() });
  }
  return runs.sort((a, b) => a.start - b.start).map(({ runId, build }) => ({ runId, build }));
}
