import { DefaultLogger } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { findFreePort } from "../../src/dev-server/free-port.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { installMetricsRuntime } from "../../src/telemetry/metrics-runtime.js";
import { createWorker, type AgentWorker } from "../../src/worker.js";
import { ProviderError } from "../../src/kernel/vocabulary/errors.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { collect } from "../support/collect.js";
import { connectTestClient, uniqueTaskQueue } from "../support/test-worker.js";

// One Temporal runtime per process, made before any connection: this file's is the metrics one (installed here with
// a quiet logger; createWorker's `metrics` option asks for the same address and gets it). It must not import
// test/support/temporal.ts, which installs a default runtime.

const lookup = defineTool({
  name: "lookup",
  description: "looks an order up",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `order ${order}: shipped`,
});
const broken = defineTool({
  name: "broken",
  description: "always fails",
  schema: z.object({}),
  execute: () => {
    throw new Error("out of order");
  },
});
const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded ${order}`,
});
const agent = defineAgent({
  name: "metered",
  model: "metered-model",
  tools: [lookup, broken, refund],
  permission: { ask: ["refund"] },
});
const model = () =>
  conversationScript([
    toolCallTurn(
      [
        { id: "l1", name: "lookup", input: { order: 7 } },
        { id: "b1", name: "broken", input: {} },
        { id: "r1", name: "refund", input: { order: 7 } },
      ],
      undefined,
      { inputTokens: 120, outputTokens: 15 },
    ),
    textTurn("refunded", { inputTokens: 200, outputTokens: 30 }),
  ]);

/** A model whose key is refused: a 401 fails the call at once (not retried) and the run ends with an error. */
const unauthorised = defineAgent({ name: "unauthorised", model: "refusing-model" });
const refusingModel = fakeProvider([
  () => {
    throw new ProviderError("401 Incorrect API key provided", 401);
  },
]);

const taskQueue = uniqueTaskQueue("metrics");
let port: number;
let worker: AgentWorker;
let running: Promise<void>;
let client: AgentClient;

beforeAll(async () => {
  port = await findFreePort();
  installMetricsRuntime(`127.0.0.1:${port}`, { logger: new DefaultLogger("WARN") });
  worker = await createWorker({
    agents: [agent, unauthorised],
    providers: { "metered-model": model(), "refusing-model": refusingModel },
    taskQueue,
    namespace: inject("temporalNamespace"),
    metrics: `127.0.0.1:${port}`,
    tracing: false,
  });
  running = worker.run();
  client = await connectTestClient(taskQueue);
});
afterAll(async () => {
  await client?.close();
  worker?.shutdown();
  await running;
});

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of the sample `name{labels}` (labels in the exporter's order: alphabetical). */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.keys(labels)
    .sort()
    .map((key) => `${key}="${labels[key]}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf("}"));
    if (wanted.every((label) => inside.split(",").includes(label))) return Number(line.split(" ").pop());
  }
  return undefined;
}

/** Scrapes until `test` holds (metrics are recorded as the worker learns of events, a moment after clients). */
async function scrapeUntil(test: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await scrape();
    if (test(text) || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("worker metrics on a Prometheus endpoint", () => {
  it("serves Temporal's runtime metrics and the agents' turns, tokens, tool calls and approvals", async () => {
    const sessionId = `metered-${taskQueue}`;
    const metered = { agent: "metered" };
    let waitingSeen: number | undefined;
    for await (const event of client.run("metered", "refund order 7", { sessionId })) {
      if (event.type !== "approval_request") continue;
      const text = await scrapeUntil((t) => sample(t, "lite_agent_approvals_waiting", metered) === 1);
      waitingSeen = sample(text, "lite_agent_approvals_waiting", metered);
      await client.session(sessionId).approve(event.call.id, { actor: "tester" });
    }
    expect(waitingSeen).toBe(1);

    const text = await scrapeUntil((t) => sample(t, "lite_agent_turns_total", metered) === 2);
    expect(sample(text, "lite_agent_turns_total", metered)).toBe(2);
    const tokens = { agent: "metered", model: "metered-model" };
    expect(sample(text, "lite_agent_input_tokens_total", tokens)).toBe(320);
    expect(sample(text, "lite_agent_output_tokens_total", tokens)).toBe(45);
    const calls = (tool: string, outcome: string) =>
      sample(text, "lite_agent_tool_calls_total", { ...metered, tool, outcome });
    expect([calls("lookup", "ok"), calls("broken", "error"), calls("refund", "ok")]).toEqual([1, 1, 1]);
    expect(sample(text, "lite_agent_approvals_waiting", metered)).toBe(0);
    const decided = { ...metered, decision: "allow" };
    expect(sample(text, "lite_agent_approval_wait_seconds_count", decided)).toBe(1);
    expect(sample(text, "lite_agent_approval_wait_seconds_bucket", { ...decided, le: "+Inf" })).toBe(1);
    // Temporal's own worker metrics, from the same runtime.
    expect(text).toMatch(/^temporal_activity_execution_latency\w*\{/m);
    expect(text).toMatch(/^temporal_workflow_task_execution_latency\w*\{/m);
  });

  it("counts runs by how they ended, and model calls that failed by error", async () => {
    const failed = await collect(client.run("unauthorised", "hello", { sessionId: `refused-${taskQueue}` }));
    expect(failed.result.stopReason).toBe("error");

    const cancelledId = `cancelled-${taskQueue}`;
    for await (const event of client.run("metered", "refund order 7", { sessionId: cancelledId })) {
      if (event.type === "approval_request")
        await client.session(cancelledId).cancel({ reason: "not today" });
    }

    const ended = (name: string, reason: string) =>
      sample(text, "lite_agent_runs_total", { agent: name, reason });
    const text = await scrapeUntil(
      (t) => sample(t, "lite_agent_runs_total", { agent: "metered", reason: "aborted" }) === 1,
    );
    expect(ended("unauthorised", "error")).toBe(1);
    expect(ended("metered", "aborted")).toBe(1);
    const modelErrors = { agent: "unauthorised", model: "refusing-model", error: "ProviderError" };
    expect(sample(text, "lite_agent_model_errors_total", modelErrors)).toBe(1);
  });

  it("refuses a second metrics endpoint in a process whose Temporal runtime exists, and says why", async () => {
    await expect(
      createWorker({ agents: [agent], providers: { "metered-model": model() }, metrics: port + 1 }),
    ).rejects.toThrow(/runtime of this process already exists/);
  });
});
