import { randomUUID } from "node:crypto";
import { promiseHooks } from "node:v8";
import { AgentClient } from "../src/client.js";
import { toAgentPlan } from "../src/define-agent.js";
import { createWorker, temporalDeltaTransport } from "../src/worker.js";
import { runWorker, type DurableBenchEnv, type RunningWorker } from "./durable-bench-env.js";
import { startMinimalLoopWorker } from "./minimal-loop/worker.js";
import type { minimalLoop } from "./minimal-loop/workflow.js";
import { OVERHEAD_TURNS, oneTurnAgent, overheadAgent, overheadProviders } from "./overhead-agent.js";
import type { AgentDefinition } from "../src/define-agent.js";
import { followRun } from "./start-session-run.js";

/** Promises created by workflow code per turn, in each way of running the benchmark's loop. */
export interface WorkflowPromisesResult {
  turns: number;
  /** A client following, live deltas. */
  runtime: number;
  /** Nobody following, no live deltas. */
  runtimeQuiet: number;
  minimalLoop: number;
  /**
   * Promises of a whole one-turn run (one model call): the session's from its start to its end (start, run, close),
   * nobody following, and the hand-written loop's workflow. What a session costs beyond its turns.
   */
  oneTurnRun: { runtimeQuiet: number; minimalLoop: number };
}

/**
 * Counts the promises workflow code creates per turn: the SDK captures a stack trace for each (its promise hook,
 * for the `__stack_trace` query), which is most of the workflow thread's CPU time (docs/decisions/0014). The workers
 * run in `debugMode`, so workflows run on this thread, where a promise hook sees them; a promise whose constructor
 * is not this realm's `Promise` was made in a workflow's sandbox. Counts are exact and repeatable, unlike timings.
 */
export async function benchWorkflowPromises(env: DurableBenchEnv): Promise<WorkflowPromisesResult> {
  const queue = (name: string) => `bench-promises-${name}-${randomUUID().slice(0, 8)}`;
  const queues = { runtime: queue("runtime"), quiet: queue("quiet"), minimal: queue("minimal") };
  const options = {
    connection: env.connection,
    namespace: env.endpoint.namespace,
    agents: [overheadAgent, oneTurnAgent],
    providers: overheadProviders(),
    workerOptions: { debugMode: true },
  };
  let counted = 0;
  let counting = false;
  const stopHook = promiseHooks.onInit((promise) => {
    if (counting && promise.constructor !== Promise) counted++;
  });
  const workers: RunningWorker[] = [];
  try {
    workers.push(
      runWorker(
        await createWorker({ ...options, taskQueue: queues.runtime, deltas: temporalDeltaTransport() }),
      ),
      runWorker(await createWorker({ ...options, taskQueue: queues.quiet, deltas: false })),
      await startMinimalLoopWorker({ ...options, taskQueue: queues.minimal }),
    );
    const countAll = async (run: () => Promise<void>) => {
      await run(); // warm-up: the first run of a worker loads the workflow code
      counted = 0;
      counting = true;
      await run();
      counting = false;
      return counted;
    };
    const count = async (run: () => Promise<void>) =>
      Math.round(((await countAll(run)) / OVERHEAD_TURNS) * 10) / 10;
    const following = new AgentClient(env.client, { taskQueue: queues.runtime, deltas: "temporal" });
    const quiet = new AgentClient(env.client, { taskQueue: queues.quiet, deltas: "temporal" });
    const quietRun = (definition: AgentDefinition) => async () => {
      const run = await quiet.start(definition.name, "go");
      await quiet.session(run.sessionId).close();
      await quiet.session(run.sessionId).workflow.result();
    };
    const minimalRun = (definition: AgentDefinition) => async () => {
      const tools = toAgentPlan(definition).tools.map(({ name, description, parameters }) => ({
        name,
        description,
        parameters,
      }));
      await env.client.workflow.execute<typeof minimalLoop>("minimalLoop", {
        taskQueue: queues.minimal,
        workflowId: `bench-minimal-${randomUUID()}`,
        args: [
          {
            agent: definition.name,
            model: definition.model,
            prompt: "go",
            tools,
            maxTurns: definition.maxTurns ?? OVERHEAD_TURNS,
          },
        ],
      });
    };
    return {
      turns: OVERHEAD_TURNS,
      runtime: await count(async () => {
        const run = await following.start(overheadAgent.name, "go");
        await followRun(following, run);
        await following.session(run.sessionId).close();
        await following.session(run.sessionId).workflow.result();
      }),
      runtimeQuiet: await count(quietRun(overheadAgent)),
      minimalLoop: await count(minimalRun(overheadAgent)),
      oneTurnRun: {
        runtimeQuiet: await countAll(quietRun(oneTurnAgent)),
        minimalLoop: await countAll(minimalRun(oneTurnAgent)),
      },
    };
  } finally {
    counting = false;
    stopHook();
    for (const worker of workers) await worker.stop();
  }
}
