// `npm run bench`: runs every benchmark, prints a table and writes bench/results/latest.json.
// Benchmarks report figures; they never fail a build on timing.
import { mkdirSync, writeFileSync } from "node:fs";
import { benchKernelOverhead } from "./kernel-overhead.js";

const only = process.argv[2];
const results: Record<string, unknown> = {};

if (!only || only === "kernel") {
  const kernel = await benchKernelOverhead();
  results.kernel = kernel;
  console.table([
    {
      benchmark: "kernel overhead (in-process, 100 turns, zero-latency model, no-op tool)",
      "µs/turn median": kernel.usPerTurnMedian,
      "µs/turn best": kernel.usPerTurnBest,
      "target µs": kernel.targetUs,
    },
  ]);
}

mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(new URL("./results/latest.json", import.meta.url), JSON.stringify({ date: new Date().toISOString(), results }, null, 2) + "\n");
