// `npm run bench -- steer-burst`: steers sent at once to one running session, by one client and by several, and how
// many per second it takes (docs/decisions/0023-update-bursts.md). Writes bench/results/steer-burst.json.
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { Client, Connection } from "@temporalio/client";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import type { Message } from "../../src/kernel/vocabulary/messages.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { createWorker } from "../../src/worker.js";
import { openDurableBenchEnv, runWorker, type DurableBenchEnv } from "../durable-bench-env.js";

/** Steers per burst, and how many clients (each its own connection) share it. */
const SCENARIOS = [
  { steers: 1_000, clients: 1 },
  { steers: 1_000, clients: 10 },
];

/** One burst's figures. */
export interface SteerBurstResult {
  steers: number;
  clients: number;
  seconds: number;
  steersPerSecond: number;
  refused: number;
  /** The distinct reasons of the refused steers. */
  reasons: string[];
  /** Steers in the transcript once each, and whether one client's steers came in the order it sent them. */
  deliveredOnce: number;
  inSendOrder: boolean;
}

let releaseWork: () => void = () => undefined;
const work = defineTool({
  name: "work",
  description: "works until released",
  schema: z.object({}),
  execute: () => new Promise<string>((resolve) => (releaseWork = () => resolve("worked"))),
});
const waiter = defineAgent({ name: "waiter", model: "work", tools: [work] });
const script = (runs: number) =>
  conversationScript(
    [...Array(runs).keys()].flatMap(() => [
      toolCallTurn([{ id: "w1", name: "work", input: {} }]),
      textTurn("finished"),
    ]),
  );

/** Runs every scenario on the server `TEMPORAL_ADDRESS` names or a dev server of its own; exit code 0. */
export async function runBurstBench(): Promise<number> {
  const loadAtStart = loadavg();
  const env = await openDurableBenchEnv();
  const taskQueue = `bench-steer-burst-${Date.now()}`;
  const worker = await createWorker({
    agents: [waiter],
    providers: { work: script(SCENARIOS.length) },
    taskQueue,
    connection: env.connection,
    namespace: env.endpoint.namespace,
  });
  const running = runWorker(worker);
  const results: SteerBurstResult[] = [];
  try {
    for (const scenario of SCENARIOS) results.push(await burst(env, taskQueue, scenario));
  } finally {
    await running.stop();
    await env.close();
  }
  console.table(results.map(({ reasons: _, ...row }) => row));
  for (const { clients, reasons } of results)
    for (const why of reasons) console.log(`${clients} client(s): ${why}`);
  const environment = { node: process.version, cpus: cpus().length, loadAtStart, loadAtEnd: loadavg() };
  const path = new URL("../results/steer-burst.json", import.meta.url);
  writeFileSync(
    path,
    `${JSON.stringify({ date: new Date().toISOString(), environment, results }, null, 2)}\n`,
  );
  console.log(`wrote ${path.pathname}`);
  return 0;
}

/** Starts a run, sends the steers at once while its tool works, then lets it end and reads what arrived. */
async function burst(
  env: DurableBenchEnv,
  taskQueue: string,
  scenario: { steers: number; clients: number },
): Promise<SteerBurstResult> {
  const owner = new AgentClient(env.client, { taskQueue });
  const connections = await Promise.all(
    [...Array(scenario.clients).keys()].map(() => Connection.connect({ address: env.endpoint.address })),
  );
  const namespace = env.endpoint.namespace;
  const clients = connections.map(
    (c) => new AgentClient(new Client({ connection: c, namespace }), { taskQueue }),
  );
  const texts = [...Array(scenario.steers).keys()].map((i) => `steer ${i}`);
  const started = await owner.start("waiter", "do the work");
  let seconds = 0;
  let refusals: unknown[] = [];
  for await (const event of owner
    .session(started.sessionId)
    .events(started.runId, { fromOffset: started.offset })) {
    if (event.type !== "tool_call_start") continue;
    const began = performance.now();
    const sends = texts.map((text, i) => clients[i % clients.length]!.session(started.sessionId).steer(text));
    refusals = (await Promise.allSettled(sends)).flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    seconds = (performance.now() - began) / 1000;
    releaseWork();
  }
  await Promise.all(connections.map((c) => c.close()));
  const delivered = userTexts(await owner.session(started.sessionId).transcript());
  const once = texts.filter((text) => delivered.filter((d) => d === text).length === 1).length;
  return {
    ...scenario,
    seconds: Math.round(seconds * 10) / 10,
    steersPerSecond: Math.round(scenario.steers / seconds),
    refused: refusals.length,
    reasons: [...new Set(refusals.map(reason))],
    deliveredOnce: once,
    inSendOrder: inClientOrder(delivered, texts, clients.length),
  };
}

/** Whether each client's steers (every `clients`-th text) arrived in the order that client sent them. */
function inClientOrder(delivered: string[], texts: string[], clients: number): boolean {
  const position = new Map(texts.map((text, i) => [text, i]));
  const last = new Array<number>(clients).fill(-1);
  for (const text of delivered) {
    const i = position.get(text);
    if (i === undefined) continue;
    if (i <= last[i % clients]!) return false;
    last[i % clients] = i;
  }
  return true;
}

/** A refusal in the server's words: the error and what it wraps. */
function reason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? String(error) : `${String(error)} (${String(cause)})`;
}

function userTexts(messages: Message[]): string[] {
  return messages.flatMap((m) => (m.role === "user" && typeof m.content === "string" ? [m.content] : []));
}
