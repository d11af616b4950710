// `npx tsx bench/seed-kernel.ts`: this kernel against the seed's `@lite-agent/core` kernel, side by side in one
// process, on 100-turn in-process runs with a zero-latency model and a no-op tool. The seed is not a dependency:
// build its `packages/core` from its public source in a folder outside this repository and point
// LITE_AGENT_SEED_CORE at it (its `dist/index.js` and `node_modules` are used). Skipped when it is not set. This
// kernel runs from its built package (`npm run build`) when there is one, as the seed's does: the sources through
// tsx carry the transpiler's naming helpers, which the seed's build has not.
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import type { createAgent as CreateAgent } from "../src/agent.js";
import type { nativeCodec as NativeCodec } from "../src/kernel/codecs/index.js";

const TURNS = 100;
const RUNS = Number(process.env.SEED_BENCH_RUNS ?? 200);
const WARMUP = 20;

/** The parts of an agent both kernels share: `send` resolving the run's result. */
interface Sender {
  send(input: string): Promise<{ stopReason: string }>;
}

/** A model that answers at once: a no-op tool call on every turn but the last, then a short text. */
function zeroLatencyModel() {
  let call = 0;
  return {
    id: "zero-latency",
    async *stream() {
      call++;
      const last = call % TURNS === 0;
      const content = last
        ? [{ type: "text" as const, text: "done" }]
        : [{ type: "tool_call" as const, id: `c${call}`, name: "noop", input: {} }];
      if (last) yield { type: "text_delta" as const, text: "done" };
      yield {
        type: "message_done" as const,
        message: { role: "assistant" as const, content },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
}

/** This kernel: from `dist/` when built, else from its sources. */
async function ours(): Promise<{ agent: Sender; from: string }> {
  const built = new URL("../dist/agent.js", import.meta.url);
  const from = existsSync(built) ? "dist" : "src";
  const { createAgent } = (await import(`../${from}/agent.js`)) as { createAgent: typeof CreateAgent };
  const codecs = (await import(`../${from}/kernel/codecs/index.js`)) as { nativeCodec: typeof NativeCodec };
  return { agent: oursFrom(createAgent, codecs.nativeCodec), from };
}

function oursFrom(createAgent: typeof CreateAgent, nativeCodec: typeof NativeCodec): Sender {
  const noop = { name: "noop", description: "does nothing", schema: z.object({}), execute: () => "ok" };
  return createAgent({ model: zeroLatencyModel(), codec: nativeCodec(), tools: [noop], maxTurns: TURNS });
}

/** The seed's agent, configured alike; `context` is its ContextEngine (on unless turned off). */
async function seed(dir: string, context: boolean): Promise<Sender> {
  const core = (await import(pathToFileURL(join(dir, "dist/index.js")).href)) as Record<string, unknown>;
  const seedZod = (await import(pathToFileURL(join(dir, "node_modules/zod/index.js")).href)) as typeof z;
  const create = core.createAgent as (config: Record<string, unknown>) => Sender;
  const codec = (core.nativeCodec as () => unknown)();
  const noop = { name: "noop", description: "does nothing", schema: seedZod.object({}), execute: () => "ok" };
  return create({
    model: zeroLatencyModel(),
    codec,
    tools: [noop],
    maxTurns: TURNS,
    ...(context ? {} : { context: false }),
  });
}

/** One run's wall time per turn, in microseconds. */
async function timeRun(agent: Sender): Promise<number> {
  const started = process.hrtime.bigint();
  const result = await agent.send("go");
  const elapsed = Number(process.hrtime.bigint() - started) / 1000;
  if (result.stopReason !== "stop") throw new Error(`benchmark run ended with ${result.stopReason}`);
  return elapsed / TURNS;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
}

const dir = process.env.LITE_AGENT_SEED_CORE;
if (!dir || !existsSync(join(dir, "dist/index.js"))) {
  console.log(
    "skipped: set LITE_AGENT_SEED_CORE to a built @lite-agent/core (its dist/index.js and node_modules)",
  );
  process.exit(0);
}
const mine = await ours();
const agents: Record<string, Sender> = {
  [`ours (${mine.from})`]: mine.agent,
  "seed (context off)": await seed(dir, false),
  "seed (default: context on)": await seed(dir, true),
};
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(agents).map((name) => [name, []]));
const loadBefore = loadavg()[0]!;
// Interleaved, so a change in the machine's load touches every kernel alike.
for (let index = 0; index < RUNS + WARMUP; index++) {
  for (const [name, agent] of Object.entries(agents)) {
    const us = await timeRun(agent);
    if (index >= WARMUP) samples[name]!.push(us);
  }
}
const base = median(Object.values(samples)[0]!);
console.table(
  Object.entries(samples).map(([name, values]) => ({
    kernel: name,
    "µs/turn median": median(values),
    "ours ÷ this": Math.round((base / median(values)) * 100) / 100,
  })),
);
console.log(`runs ${RUNS} each, load average ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
