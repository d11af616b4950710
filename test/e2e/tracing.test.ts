import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { createAgentTracing } from "../../src/telemetry/agent-tracing.js";
import {
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

const lookup = defineTool({
  name: "lookup",
  description: "looks an order up",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `order ${order}: shipped`,
});
const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded ${order}`,
});
const agent = defineAgent({
  name: "traced",
  model: "traced-model",
  tools: [lookup, refund],
  permission: { ask: ["refund"] },
});
const model = () =>
  conversationScript([
    {
      ...toolCallTurn(
        [
          { id: "l1", name: "lookup", input: { order: 7 } },
          { id: "r1", name: "refund", input: { order: 7 } },
        ],
        undefined,
        { inputTokens: 120, outputTokens: 15 },
      ),
      stopReason: "tool_use",
    },
    { ...textTurn("refunded", { inputTokens: 200, outputTokens: 30 }), stopReason: "stop" },
  ]);

const exporter = new InMemorySpanExporter();
const tracing = await createAgentTracing({ exporter, serviceName: "tracing-test" });
const taskQueue = uniqueTaskQueue("tracing");
let worker: RunningWorker;
let client: AgentClient;

beforeAll(async () => {
  worker = await startTestWorker({
    taskQueue,
    agents: [agent],
    providers: { "traced-model": model() },
    tracing,
  });
  const namespace = inject("temporalNamespace");
  client = await AgentClient.connect({ address: temporalAddress(), namespace, taskQueue, tracing });
});
afterAll(async () => {
  await client?.close();
  await worker?.stop();
  await tracing.shutdown();
});

/** The exported spans, once `test` holds of them (sinks report after the workflow task; spans end then). */
async function spansWhen(test: (spans: ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const spans = exporter.getFinishedSpans();
    if (test(spans) || Date.now() > deadline) return spans;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const one = (spans: ReadableSpan[], name: string) => {
  const found = named(spans, name);
  expect(found, `one span named '${name}' (spans: ${spans.map((s) => s.name).join(", ")})`).toHaveLength(1);
  return found[0]!;
};
const isChild = (child: ReadableSpan, parent: ReadableSpan) =>
  child.spanContext().traceId === parent.spanContext().traceId &&
  child.parentSpanId === parent.spanContext().spanId;

describe("tracing a durable run", () => {
  it("exports run → turn → model call / tool call spans with the GenAI attributes and token counts", async () => {
    const sessionId = `traced-${taskQueue}`;
    for await (const event of client.run("traced", "refund order 7", { sessionId })) {
      if (event.type === "approval_request")
        await client.session(sessionId).approve(event.call.id, { actor: "tester" });
    }
    const spans = await spansWhen((all) => named(all, "invoke_agent traced").length > 0);

    const run = one(spans, "invoke_agent traced");
    expect(run.parentSpanId).toBeUndefined();
    expect(run.resource.attributes["service.name"]).toBe("tracing-test");
    expect(run.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "traced",
      "gen_ai.conversation.id": sessionId,
      "gen_ai.usage.input_tokens": 320,
      "gen_ai.usage.output_tokens": 45,
      "lite_agent.stop_reason": "stop",
    });
    const turn1 = one(spans, "turn 1");
    const turn2 = one(spans, "turn 2");
    expect(isChild(turn1, run) && isChild(turn2, run)).toBe(true);
    expect(turn1.attributes["lite_agent.stop_reason"]).toBe("tool_use");
    expect(turn2.attributes["lite_agent.stop_reason"]).toBe("stop");

    const chats = named(spans, "chat traced-model");
    expect(chats).toHaveLength(2);
    const [first, second] = [chats.find((s) => isChild(s, turn1)), chats.find((s) => isChild(s, turn2))];
    expect(first?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "traced-model",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 15,
      "gen_ai.response.finish_reasons": ["tool_calls"],
    });
    expect(second?.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 200,
      "gen_ai.usage.output_tokens": 30,
      "gen_ai.response.finish_reasons": ["stop"],
    });

    for (const [name, id] of [
      ["lookup", "l1"],
      ["refund", "r1"],
    ] as const) {
      const tool = one(spans, `execute_tool ${name}`);
      expect(isChild(tool, turn1)).toBe(true);
      expect(tool.attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": name,
        "gen_ai.tool.call.id": id,
      });
    }
    const approval = one(spans, "approval refund");
    expect(isChild(approval, turn1)).toBe(true);
    expect(approval.attributes["lite_agent.approval.decision"]).toBe("allow");
  });

  it("exports Temporal's spans too, from the client through the workflow to the activities", async () => {
    const spans = exporter.getFinishedSpans();
    // The client's update-with-start span begins Temporal's trace: the workflow run continues it (its span ends
    // with the session, so it is not exported here), and so do the activities it schedules.
    const start = one(spans, "UpdateWithStartWorkflow:startRun");
    // Updates are not traced inside the workflow (src/workflows/admission/tracing-interceptors.ts).
    expect(named(spans, "HandleUpdate:startRun")).toEqual([]);
    // The workflow schedules each activity under its own span (exported through the workflow sink), and the
    // activity's span on the worker is that span's child: the context travels in the activity's headers.
    const activitySpans = named(spans, "RunActivity:callModel");
    const scheduled = named(spans, "StartActivity:callModel");
    expect(activitySpans).toHaveLength(2);
    for (const span of activitySpans) expect(scheduled.some((parent) => isChild(span, parent))).toBe(true);
    expect(scheduled.every((span) => span.spanContext().traceId === start.spanContext().traceId)).toBe(true);
    // One client span per attempt: the session may refuse the decision as busy once, and the client sends it again.
    expect(named(spans, "StartWorkflowUpdate:decideToolCall").length).toBeGreaterThanOrEqual(1);
    // Each call span is linked to its activity's span (our trace is the run's; Temporal's is the client's call).
    const chat = named(spans, "chat traced-model")[0]!;
    const linked = chat.links.map((link) => link.context.spanId);
    expect(activitySpans.some((span) => linked.includes(span.spanContext().spanId))).toBe(true);
  });
});
