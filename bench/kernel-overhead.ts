import { z } from "zod";
import { createAgent } from "../src/agent.js";
import { nativeCodec } from "../src/kernel/codecs/index.js";
import type { ModelChunk, ModelProvider } from "../src/kernel/vocabulary/model.js";
import { defineTool } from "../src/kernel/vocabulary/tools.js";

/** What the kernel-overhead benchmark measured. */
export interface KernelOverheadResult {
  turns: number;
  runs: number;
  /** Median wall time per turn over the measured runs, in microseconds. */
  usPerTurnMedian: number;
  usPerTurnBest: number;
  targetUs: number;
}

const TURNS = 100;

/** A model that answers at once: a tool call on every turn but the last, then a short text. */
function zeroLatencyModel(turns: number): ModelProvider {
  let call = 0;
  return {
    id: "zero-latency",
    async *stream(): AsyncIterable<ModelChunk> {
      call++;
      const last = call % turns === 0;
      const content = last
        ? [{ type: "text" as const, text: "done" }]
        : [{ type: "tool_call" as const, id: `c${call}`, name: "noop", input: {} }];
      if (last) yield { type: "text_delta", text: "done" };
      yield {
        type: "message_done",
        message: { role: "assistant", content },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
}

/** Runs 100-turn in-process runs with a zero-latency model and a no-op tool; reports µs per turn. */
export async function benchKernelOverhead(runs = 100): Promise<KernelOverheadResult> {
  const noop = defineTool({
    name: "noop",
    description: "does nothing",
    schema: z.object({}),
    execute: () => "ok",
  });
  const agent = createAgent({
    model: zeroLatencyModel(TURNS),
    codec: nativeCodec(),
    tools: [noop],
    maxTurns: TURNS,
  });
  const samples: number[] = [];
  for (let index = 0; index < runs + 5; index++) {
    const started = process.hrtime.bigint();
    const result = await agent.send("go");
    const elapsed = Number(process.hrtime.bigint() - started) / 1000;
    if (result.stopReason !== "stop") throw new Error(`benchmark run ended with ${result.stopReason}`);
    if (index >= 5) samples.push(elapsed / TURNS); // the first runs warm up the JIT
  }
  samples.sort((a, b) => a - b);
  return {
    turns: TURNS,
    runs,
    usPerTurnMedian: round(samples[Math.floor(samples.length / 2)]!),
    usPerTurnBest: round(samples[0]!),
    targetUs: 50,
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
