// A worker process for the crash test: the test kills it with SIGKILL in the middle of a tool call.
// Env: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TASK_QUEUE, SIDE_EFFECTS (a file each tool appends to), WORKER_NAME.
import { appendFileSync } from "node:fs";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { z } from "zod";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool, type ToolContext } from "../../src/kernel/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { createWorker } from "../../src/worker.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`crash-worker: ${name} is not set`);
  return value;
};
const sideEffects = env("SIDE_EFFECTS");
const workerName = env("WORKER_NAME");
const note = (line: string) => appendFileSync(sideEffects, `${line}\n`);
/** Waits until the activity is cancelled; the test kills the process long before that. */
const hang = (ctx: ToolContext) =>
  new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("cancelled")));

export const crashTools = [
  defineTool({
    name: "record",
    description: "records a label",
    schema: z.object({ label: z.string() }),
    execute: ({ label }) => (note(`record ${label}`), `recorded ${label}`),
  }),
  defineTool({
    name: "slow_once",
    description: "a slow tool with side effects",
    schema: z.object({}),
    execute: (_input, ctx) => (note("slow_once start"), hang(ctx)),
  }),
  defineTool({
    name: "slow_idem",
    description: "a slow idempotent tool",
    schema: z.object({}),
    retry: "idempotent",
    execute: (_input, ctx) => {
      note(`slow_idem start ${ctx.idempotencyKey} ${workerName}`);
      return workerName === "second" ? hang(ctx) : "idem done";
    },
  }),
];

export const crashAgent = defineAgent({
  name: "crashy",
  model: "scripted",
  tools: crashTools,
  durable: { toolHeartbeatTimeoutMs: 2_000 },
});

const script = conversationScript([
  toolCallTurn([
    { id: "r1", name: "record", input: { label: "a" } },
    { id: "r2", name: "record", input: { label: "b" } },
  ]),
  toolCallTurn([{ id: "s1", name: "slow_once", input: {} }]),
  toolCallTurn([{ id: "i1", name: "slow_idem", input: {} }]),
  textTurn("done"),
]);

Runtime.install({ logger: new DefaultLogger("ERROR") });
const connection = await NativeConnection.connect({ address: env("TEMPORAL_ADDRESS") });
const worker = await createWorker({
  agents: [crashAgent],
  providers: { scripted: script },
  taskQueue: env("TASK_QUEUE"),
  connection,
  namespace: process.env.TEMPORAL_NAMESPACE ?? "default",
  // A killed worker's sticky queue would hold the workflow for the default 10 s; hand it over quickly.
  workerOptions: { stickyQueueScheduleToStartTimeout: "1s" },
});
const running = worker.run();
console.log("worker ready");
await running;
