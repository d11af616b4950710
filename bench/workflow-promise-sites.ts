// `npx tsx bench/workflow-promise-sites.ts`: where workflow code makes its promises, per turn of the benchmark's loop
// (nobody following), grouped by the innermost stack frames (`DEPTH`, default 4; the `TOP` sites, default 40).
// The count is `npm run bench -- promises`'s; this says which code makes them (docs/decisions/0014). Frames of the
// workflow bundle are shown as bundle positions (the cached bundle's source map places them). `LIVE=1`: a worker that
// sends live output through the session (the benchmark's "a client following" worker), as `deltas: false` otherwise.
import { promiseHooks } from "node:v8";
import { randomUUID } from "node:crypto";
import { AgentClient } from "../src/client.js";
import { createWorker } from "../src/worker.js";
import { temporalDeltaTransport } from "../src/stream/delta-transport.js";
import { openDurableBenchEnv, runWorker } from "./durable-bench-env.js";
import { OVERHEAD_TURNS, overheadAgent, overheadProviders } from "./overhead-agent.js";

const env = await openDurableBenchEnv();
const taskQueue = `sites-${randomUUID().slice(0, 8)}`;
const worker = runWorker(
  await createWorker({
    connection: env.connection,
    namespace: env.endpoint.namespace,
    agents: [overheadAgent],
    providers: overheadProviders(),
    workerOptions: { debugMode: true },
    taskQueue,
    ...(process.env.LIVE === "1" ? { deltas: temporalDeltaTransport() } : { deltas: false as const }),
  }),
);
const sites = new Map<string, number>();
let counting = false;
let total = 0;
Error.stackTraceLimit = 40;
const stop = promiseHooks.onInit((promise) => {
  if (!counting || promise.constructor === Promise) return;
  total++;
  const stack = (new Error().stack ?? "").split("\n").slice(2);
  const frames = stack
    .filter((line) => !line.includes("node:") && !line.includes("workflow-promise-sites"))
    .map((line) =>
      line
        .trim()
        .replace(/^at /, "")
        .replace(/\(?(file:\/\/)?\/[^ ]*\/([^/]+:\d+:\d+)\)?/, "$2"),
    )
    .slice(0, Number(process.env.DEPTH ?? 4));
  const key = frames.join(" <- ");
  sites.set(key, (sites.get(key) ?? 0) + 1);
});
const client = new AgentClient(env.client, { taskQueue, deltas: "temporal" });
const once = async () => {
  const run = await client.start(overheadAgent.name, "go");
  await client.session(run.sessionId).close();
  await client.session(run.sessionId).workflow.result();
};
await once();
counting = true;
await once();
counting = false;
stop();
console.log(`total ${(total / OVERHEAD_TURNS).toFixed(1)} per turn`);
for (const [key, count] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 40)))
  console.log((count / OVERHEAD_TURNS).toFixed(2).padStart(7), key);
await worker.stop();
await env.close();
