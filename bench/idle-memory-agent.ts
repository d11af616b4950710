import { z } from "zod";
import { defineAgent } from "../src/define-agent.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../src/kernel/vocabulary/model.js";
import { defineTool } from "../src/kernel/vocabulary/tools.js";
import { noopTool } from "./noop-tool.js";

/** The agent of the idle-memory benchmark. */
export const IDLE_MEMORY_AGENT = "bench-idle";
/** Turns of an active run: a no-op tool call on each turn but the last, then a short answer. */
export const ACTIVE_TURNS = 10;

/**
 * Zero latency, stateless: "idle" gets a one-turn answer (the session then idles), "approve" calls a tool that needs
 * approval (the session then waits for a person), anything else runs ACTIVE_TURNS turns.
 */
export const idleMemoryModel: ModelProvider = {
  id: "zero-latency",
  async *stream(request: ModelRequest): AsyncIterable<ModelChunk> {
    const turn = request.messages.filter((message) => message.role === "assistant").length + 1;
    const first = request.messages.find((message) => message.role === "user");
    const prompt = typeof first?.content === "string" ? first.content : "";
    const last = prompt === "idle" || (prompt === "approve" && turn > 1) || turn >= ACTIVE_TURNS;
    const content = last
      ? [{ type: "text" as const, text: "done" }]
      : [
          {
            type: "tool_call" as const,
            id: `c${turn}`,
            name: prompt === "approve" ? "guarded" : "noop",
            input: {},
          },
        ];
    yield {
      type: "message_done",
      message: { role: "assistant", content },
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  },
};

const guarded = defineTool({
  name: "guarded",
  description: "does nothing, once a person allows it",
  schema: z.object({}),
  execute: () => "ok",
});

export const idleMemoryAgent = defineAgent({
  name: IDLE_MEMORY_AGENT,
  model: idleMemoryModel.id,
  tools: [noopTool, guarded],
  maxTurns: ACTIVE_TURNS,
  permission: { ask: ["guarded"] },
});
