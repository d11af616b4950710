import { defineAgent } from "../src/define-agent.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../src/kernel/vocabulary/model.js";
import { noopTool } from "./noop-tool.js";

/** Turns of one run of the durable-overhead benchmarks. */
export const OVERHEAD_TURNS = 50;

/** A stateless zero-latency model: a tool call on every turn but the last (counted from the request), then text. */
export function zeroLatencyModel(turns: number): ModelProvider {
  return {
    id: "zero-latency",
    async *stream(request: ModelRequest): AsyncIterable<ModelChunk> {
      const turn = request.messages.filter((message) => message.role === "assistant").length + 1;
      const content =
        turn >= turns
          ? [{ type: "text" as const, text: "done" }]
          : [{ type: "tool_call" as const, id: `c${turn}`, name: "noop", input: {} }];
      if (turn >= turns) yield { type: "text_delta", text: "done" };
      yield {
        type: "message_done",
        message: { role: "assistant", content },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    },
  };
}

/** The agent of the durable-overhead benchmarks: the zero-latency model and one no-op tool. */
export const overheadAgent = defineAgent({
  name: "bench-overhead",
  model: "zero-latency",
  tools: [noopTool],
  maxTurns: OVERHEAD_TURNS,
});

/** The providers the benchmark workers serve. */
export function overheadProviders(): Record<string, ModelProvider> {
  return {
    "zero-latency": zeroLatencyModel(OVERHEAD_TURNS),
    "zero-latency-20": zeroLatencyModel(THROUGHPUT_TURNS),
    "zero-latency-1": zeroLatencyModel(1),
  };
}

/** Turns of each session of the throughput benchmark. */
export const THROUGHPUT_TURNS = 20;

/** The agent of the throughput benchmark: the same loop, shorter runs, so 50 sessions fit in a short benchmark. */
export const throughputAgent = defineAgent({
  name: "bench-throughput",
  model: "zero-latency-20",
  tools: [noopTool],
  maxTurns: THROUGHPUT_TURNS,
});

/** An agent whose runs take one turn (one model call, no tool call): what a session costs beyond its turns. */
export const oneTurnAgent = defineAgent({
  name: "bench-one-turn",
  model: "zero-latency-1",
  tools: [noopTool],
  maxTurns: 1,
});
