// A worker process for the fast-recovery test: the test kills it with SIGKILL in the middle of a model call or a
// tool call. It uses the worker defaults (model heartbeat timeout, sticky queue timeout) on purpose.
// Env: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TASK_QUEUE, SIDE_EFFECTS (a file each tool appends to), WORKER_NAME,
// OPENAI_BASE_URL (the test's scripted OpenAI server).
import { appendFileSync } from "node:fs";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { z } from "zod";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool, type ToolContext } from "../../src/kernel/vocabulary/tools.js";
import { openaiProvider } from "../../src/providers/openai-provider.js";
import { createWorker } from "../../src/worker.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`recovery-worker: ${name} is not set`);
  return value;
};
const sideEffects = env("SIDE_EFFECTS");
const workerName = env("WORKER_NAME");
const note = (line: string) => appendFileSync(sideEffects, `${Date.now()} ${workerName} ${line}\n`);
/** Waits until the activity is cancelled; the test kills the process long before that. */
const hang = (ctx: ToolContext) =>
  new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("cancelled")));

export const recoveryAgent = defineAgent({
  name: "recoverable",
  model: "local-model",
  tools: [
    defineTool({
      name: "record",
      description: "records a label",
      schema: z.object({ label: z.string() }),
      execute: ({ label }) => (note(`record ${label}`), `recorded ${label}`),
    }),
    defineTool({
      name: "slow_tool",
      description: "a slow tool with side effects (at most once)",
      schema: z.object({}),
      execute: (_input, ctx) => (note("slow_tool start"), hang(ctx)),
    }),
  ],
});

Runtime.install({ logger: new DefaultLogger("ERROR") });
const connection = await NativeConnection.connect({ address: env("TEMPORAL_ADDRESS") });
const worker = await createWorker({
  agents: [recoveryAgent],
  providers: { "*": openaiProvider({ baseURL: env("OPENAI_BASE_URL"), apiKey: "local" }) },
  taskQueue: env("TASK_QUEUE"),
  connection,
  namespace: process.env.TEMPORAL_NAMESPACE ?? "default",
});
const running = worker.run();
console.log("worker ready");
await running;
