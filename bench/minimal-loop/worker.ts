import { fileURLToPath } from "node:url";
import { bundleWorkflowCode, type NativeConnection, Worker, type WorkerOptions } from "@temporalio/worker";
import { AgentRegistry, createActivities, type ProviderMap } from "../../src/activities/index.js";
import type { AgentDefinition } from "../../src/define-agent.js";
import { compileSourcesFor, quietLogger, SOURCE_TARGET } from "../../src/worker/workflow-bundle.js";
import { runWorker, type RunningWorker } from "../durable-bench-env.js";

/** Options of {@link startMinimalLoopWorker}. */
export interface MinimalLoopWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  agents: AgentDefinition[];
  providers: ProviderMap;
  /** Extra worker options (`debugMode` for the promise count). */
  workerOptions?: Partial<WorkerOptions>;
}

/**
 * A worker for the hand-written loop: its own bundle (built from minimal-loop/workflow.ts, not the product's
 * bundle) and the product's activities, bound to the same registry a `createWorker` worker would build.
 */
export async function startMinimalLoopWorker(options: MinimalLoopWorkerOptions): Promise<RunningWorker> {
  const workflowsPath = fileURLToPath(new URL("./workflow.ts", import.meta.url));
  // Compiled like the product's bundle, so both run the same language level.
  const bundle = await bundleWorkflowCode({
    workflowsPath,
    logger: quietLogger,
    webpackConfigHook: compileSourcesFor(SOURCE_TARGET),
  });
  const worker = await Worker.create({
    ...options.workerOptions,
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowBundle: bundle,
    activities: createActivities(new AgentRegistry(options.agents, options.providers)),
  });
  return runWorker(worker);
}
