// The benchmark's baseline: the smallest Temporal agent loop that does the same work as the session workflow
// (one `callModel` activity per model call, one `executeTool` activity per tool call) and nothing else: no
// kernel, no streaming, no events, no queries, no session. It is bundled on its own (minimal-loop/worker.ts).
import { proxyActivities, workflowInfo } from "@temporalio/workflow";
import type { AgentActivities } from "../../src/contract/activity-types.js";
import type { ContentBlock, Message, ToolCallBlock } from "../../src/kernel/vocabulary/messages.js";
import type { ToolSpec } from "../../src/kernel/vocabulary/tools.js";

/** The input of {@link minimalLoop}. */
export interface MinimalLoopInput {
  /** The agent whose tools `executeTool` runs (looked up in the worker's registry, as for the session workflow). */
  agent: string;
  model: string;
  prompt: string;
  tools: ToolSpec[];
  maxTurns: number;
}

/** What {@link minimalLoop} returns. */
export interface MinimalLoopResult {
  turns: number;
  text: string;
}

const { callModel } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "10 minutes",
  retry: { maximumAttempts: 3 },
});
const { executeTool } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "5 minutes",
  retry: { maximumAttempts: 1 },
});

/** Calls the model, runs the tools it asked for, feeds the results back; stops when it answers without a call. */
export async function minimalLoop(input: MinimalLoopInput): Promise<MinimalLoopResult> {
  const runId = workflowInfo().workflowId;
  const messages: Message[] = [{ role: "user", content: input.prompt }];
  for (let turn = 1; turn <= input.maxTurns; turn++) {
    const request = { model: input.model, messages, tools: input.tools };
    const { message } = await callModel({
      agent: input.agent,
      model: input.model,
      runId,
      turn,
      requestKey: "",
      request,
    });
    messages.push(message);
    const calls = blocks(message.content).filter(
      (block): block is ToolCallBlock => block.type === "tool_call",
    );
    if (calls.length === 0) return { turns: turn, text: textOf(message.content) };
    const results = await Promise.all(
      calls.map((call) =>
        executeTool({
          agent: input.agent,
          sessionId: runId,
          runId,
          turn,
          call: { id: call.id, name: call.name, input: call.input },
        }),
      ),
    );
    const content = results.map((result, index) => ({
      type: "tool_result" as const,
      id: calls[index]!.id,
      ...result,
    }));
    messages.push({ role: "user", content });
  }
  throw new Error(`minimalLoop: no answer within ${input.maxTurns} turns`);
}

function blocks(content: string | ContentBlock[]): ContentBlock[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function textOf(content: string | ContentBlock[]): string {
  return blocks(content)
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("");
}
