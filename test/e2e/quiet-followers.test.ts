import { Client, Connection, type WorkflowClientInterceptor } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient, type DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { readStreamQuery } from "../../src/contract/stream/stream-messages.js";
import {
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

// A follower of a session in which nothing is in flight that could send live output or tool events (waiting for a
// person, a subagent, a tool that sends none) waits on the session's history (the server's long poll) instead of
// asking the worker every 200 ms (docs/decisions/0014).

let release: () => void = () => undefined;
const hold = defineTool({
  name: "hold",
  description: "waits until the test releases it",
  schema: z.object({}),
  execute: () => new Promise<string>((resolve) => (release = () => resolve("released"))),
});
const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded order ${order}`,
});

const agents = [
  defineAgent({ name: "asker", model: "asker", tools: [refund], permission: { ask: ["refund"] } }),
  defineAgent({ name: "holder", model: "holder", tools: [hold] }),
  defineAgent({
    name: "twice",
    model: "twice",
    tools: [refund],
    permission: { ask: ["refund"] },
    // Every turn boundary continues as new: the follower's place in the history moves to a new execution.
    durable: { continueAsNew: { maxHistoryEvents: 5 } },
  }),
];
const providers = {
  asker: conversationScript([
    toolCallTurn([{ id: "r1", name: "refund", input: { order: 7 } }]),
    textTurn("done"),
  ]),
  holder: conversationScript([toolCallTurn([{ id: "h1", name: "hold", input: {} }]), textTurn("held")]),
  twice: conversationScript([
    toolCallTurn([{ id: "a", name: "refund", input: { order: 1 } }]),
    toolCallTurn([{ id: "b", name: "refund", input: { order: 2 } }]),
    textTurn("both"),
  ]),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("followers of a quiet session", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const streamReads = { count: 0 };
  const taskQueue = uniqueTaskQueue("quiet");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents, providers });
    // Counts the client's `readStream` queries, each of which the session's worker answers.
    const counter: WorkflowClientInterceptor = {
      query: (input, next) => {
        if (input.queryType === readStreamQuery.name) streamReads.count++;
        return next(input);
      },
    };
    const connection = await Connection.connect({ address: temporalAddress() });
    const temporal = new Client({
      connection,
      namespace: inject("temporalNamespace"),
      interceptors: { workflow: [counter] },
    });
    client = new AgentClient(temporal, { taskQueue });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  /** Reads a run's events in the background; `until` resolves once a matching event has come. */
  function follow(started: { sessionId: string; runId: string; offset: number }) {
    const events: DurableEvent[] = [];
    const run = client.session(started.sessionId).events(started.runId, { fromOffset: started.offset });
    const done = (async () => {
      for (;;) {
        const next = await run.next();
        if (next.done) return next.value;
        events.push(next.value);
      }
    })();
    const until = async (test: (event: AgentEvent) => boolean) => {
      while (!events.some(test)) await sleep(20);
    };
    return { events, done, until };
  }

  it("the stream says quiet only while no model or tool call is in flight", async () => {
    const started = await client.start("holder", "hold on");
    const read = () => client.session(started.sessionId).workflow.query(readStreamQuery, { from: 0 });
    const run = follow(started);
    await run.until((event) => event.type === "tool_call_start");
    // The tool's activity is running (it may send events): not quiet.
    await expect.poll(async () => (await read()).quiet, { timeout: 10_000 }).toBe(false);
    release();
    expect((await run.done)?.text).toBe("held");
    expect((await read()).quiet).toBe(true);
  });

  it("a follower waiting with a session for a person asks a few times, not every 200 ms, and misses nothing", async () => {
    const started = await client.start("asker", "refund order 7");
    const run = follow(started);
    await run.until((event) => event.type === "approval_request");
    expect((await client.session(started.sessionId).workflow.query(readStreamQuery, { from: 0 })).quiet).toBe(
      true,
    );
    const before = streamReads.count;
    await sleep(3_000);
    // Asking at the usual pace would be about 15 reads in 3 s (the back-off caps at 200 ms).
    expect(streamReads.count - before).toBeLessThanOrEqual(4);

    await client.session(started.sessionId).approve("r1");
    const result = await run.done;
    expect(result?.text).toBe("done");
    const types = run.events.map((event) => event.type);
    expect(types.slice(types.indexOf("approval_request"))).toEqual(
      expect.arrayContaining(["permission_decision", "tool_call_end", "tool_result", "done"]),
    );
  });

  it("a follower waiting across a continue-as-new gets every event of both waits", async () => {
    const started = await client.start("twice", "two refunds");
    const run = follow(started);
    await run.until((event) => event.type === "approval_request");
    await sleep(1_000);
    await client.session(started.sessionId).approve("a");
    await run.until((event) => event.type === "approval_request" && event.call.id === "b");
    const before = streamReads.count;
    await sleep(2_000);
    expect(streamReads.count - before).toBeLessThanOrEqual(4);
    await client.session(started.sessionId).approve("b");
    expect((await run.done)?.text).toBe("both");
    const ends = run.events.filter((event) => event.type === "tool_call_end").map((event) => event.id);
    expect(ends).toEqual(["a", "b"]);
    const executions = await client.temporal.workflowService.listWorkflowExecutions({
      namespace: client.temporal.options.namespace,
      query: `WorkflowId = "${started.sessionId}"`,
    });
    // It did continue as new while the follower waited (one closed execution at least, besides the open one).
    expect(executions.executions?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  // Each stream listens on the client's close signal while it is read: no leak, so Node must not warn past ten.
  it("one client follows twelve waiting sessions together, with no listener-leak warning, each to its run's end", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const started = await Promise.all(
        Array.from({ length: 12 }, (_, index) => client.start("asker", `refund order ${index}`)),
      );
      const runs = started.map((run) => follow(run));
      // Every stream is open at once, each waiting for its session's approval request.
      await Promise.all(runs.map((run) => run.until((event) => event.type === "approval_request")));
      await Promise.all(started.map((run) => client.session(run.sessionId).approve("r1")));
      const results = await Promise.all(runs.map((run) => run.done));
      expect(results.map((result) => result?.text)).toEqual(Array(12).fill("done"));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
