// The worker container's health check: healthy while a worker in this container polls the task queue of every agent
// it serves, as the Temporal server sees it. A process that is alive but lost its connection turns unhealthy.
// Reads TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and LITE_AGENT_TASK_QUEUE like `lite-agent worker`, and
// LITE_AGENT_HEALTH_AGENTS: the agents served, comma-separated (default the demo agent, sandbox-analyst). A worker
// polls one queue per agent, `<LITE_AGENT_TASK_QUEUE>.<agent>`.
import { hostname } from "node:os";
import { Connection } from "@temporalio/client";
import proto from "@temporalio/proto";

const address = process.env.TEMPORAL_ADDRESS || "127.0.0.1:7233";
const namespace = process.env.TEMPORAL_NAMESPACE || "default";
const base = process.env.LITE_AGENT_TASK_QUEUE || "lite-agent";
const agents = (process.env.LITE_AGENT_HEALTH_AGENTS || "sandbox-analyst")
  .split(",")
  .map((agent) => agent.trim())
  .filter((agent) => agent !== "");
// Workers name themselves `<pid>@<hostname>`, and the container's hostname is its own.
const suffix = `@${hostname()}`;

const connection = await Connection.connect({ address, connectTimeout: 5_000 });
try {
  for (const agent of agents) {
    const taskQueue = `${base}.${agent}`;
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    });
    const ours = pollers.filter((poller) => poller.identity?.endsWith(suffix));
    if (ours.length === 0) {
      console.error(`no worker of this container (${suffix}) polls task queue '${taskQueue}' on ${address}`);
      process.exitCode = 1;
    } else {
      console.log(
        `polling '${taskQueue}' on ${address} as ${ours.map((poller) => poller.identity).join(", ")}`,
      );
    }
  }
} finally {
  await connection.close();
}
