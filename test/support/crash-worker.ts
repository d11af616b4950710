// A worker process for the crash tests: the test kills it with SIGKILL in the middle of a tool call (also one of a
// background group's child session) or of an effect, and starts another.
// Env: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TASK_QUEUE, SIDE_EFFECTS (a file each tool and effect appends to),
// WORKER_NAME (the worker named "first" never finishes an effect: it is killed in the middle of it).
import { appendFileSync } from "node:fs";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { z } from "zod";
import { defineAgent } from "../../src/define-agent.js";
import { implementEffect } from "../../src/kernel/vocabulary/effects.js";
import { defineTool, type ToolContext } from "../../src/kernel/vocabulary/tools.js";
import { delegateTool } from "../../src/subagents/delegate-tool.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { createWorker } from "../../src/worker.js";
import { chargeCard, effectAfterTool, reindex } from "../e2e/fixtures/middleware/effect-middleware.js";

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

const [record, slowOnce] = crashTools;
/** A background group's subagent: a tool call that completes, then one its worker dies in. */
const child = defineAgent({
  name: "bg-crash-child",
  model: "bg-crash-child",
  tools: [record!, slowOnce!],
  durable: { toolHeartbeatTimeoutMs: 2_000 },
});
/** Records and starts a joinable group in the same turn, waits for it, and answers from its note. */
const lead = defineAgent({
  name: "bg-crash-lead",
  model: "bg-crash-lead",
  tools: [record!, delegateTool({ agents: [child], backgroundKind: "joinable" })],
});
/** The first worker's effects never finish: it dies in the middle of one. */
const effectOutcome = (answer: string) =>
  workerName === "first" ? new Promise<string>(() => undefined) : Promise.resolve(answer);
/** An agent whose middleware runs an effect after each tool call: `charge_card` (once) or `reindex` (idempotent). */
const effectAgent = (name: string, effect: "once" | "idempotent") =>
  defineAgent({
    name,
    model: "effect-crash",
    tools: [record!],
    use: [effectAfterTool({ effect })],
    effects: [
      implementEffect(
        chargeCard,
        ({ call }) => (note(`charge_card ${call} ${workerName}`), effectOutcome("charged")),
      ),
      implementEffect(
        reindex,
        ({ call }) => (note(`reindex ${call} ${workerName}`), effectOutcome("reindexed")),
      ),
    ],
  });

const providers = {
  scripted: script,
  "bg-crash-lead": conversationScript([
    toolCallTurn([
      { id: "r1", name: "record", input: { label: "lead" } },
      {
        id: "g1",
        name: "Agent",
        input: {
          tasks: [{ display_name: "chores", subagent_type: "bg-crash-child", prompt: "do the chores" }],
          run_in_background: true,
        },
      },
    ]),
    textTurn("Waiting for the chores."),
    textTurn("The chores are done."),
  ]),
  "bg-crash-child": conversationScript([
    toolCallTurn([{ id: "c1", name: "record", input: { label: "child" } }]),
    toolCallTurn([{ id: "c2", name: "slow_once", input: {} }]),
    textTurn("Recorded; the slow chore was interrupted."),
  ]),
  "effect-crash": conversationScript([
    toolCallTurn([{ id: "e1", name: "record", input: { label: "purchase" } }]),
    textTurn("done"),
  ]),
};

Runtime.install({ logger: new DefaultLogger("ERROR") });
const connection = await NativeConnection.connect({ address: env("TEMPORAL_ADDRESS") });
const worker = await createWorker({
  agents: [
    crashAgent,
    lead,
    child,
    effectAgent("effect-once", "once"),
    effectAgent("effect-idempotent", "idempotent"),
  ],
  providers,
  taskQueue: env("TASK_QUEUE"),
  connection,
  namespace: process.env.TEMPORAL_NAMESPACE ?? "default",
  // A killed worker's sticky queue would hold the workflow for the default 10 s; hand it over quickly.
  workerOptions: { stickyQueueScheduleToStartTimeout: "1s" },
});
const running = worker.run();
console.log("worker ready");
await running;
