import { fileURLToPath } from "node:url";
import { bundleWorkflowCode, type NativeConnection, Worker } from "@temporalio/worker";
import { AgentRegistry, createActivities, type ProviderMap } from "../../src/activities/index.js";
import type { AgentDefinition } from "../../src/define-agent.js";
import { quietLogger } from "../../src/runtime/workflow-bundle.js";
import { runWorker, type RunningWorker } from "../durable-bench-env.js";

/** Options of {@link startMinimalLoopWorker}. */
export interface MinimalLoopWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  agents: AgentDefinition[];
  providers: ProviderMap;
}

/**
 * A worker for the hand-written loop: its own bundle (built from minimal-loop/workflow.ts, not the product's
 * bundle) and the product's activities, bound to the same registry a `createWorker` worker would build.
 */
export async function startMinimalLoopWorker(options: MinimalLoopWorkerOptions): Promise<RunningWorker> {
  const workflowsPath = fileURLToPath(new URL("./workflow.ts", import.meta.url));
  const bundle = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: bundle,
    activities: createActivities(new AgentRegistry(options.agents, options.providers)),
  });
  return runWorker(worker);
}
