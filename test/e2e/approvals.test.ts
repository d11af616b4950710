import { defaultPayloadConverter } from "@temporalio/common";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent, type AgentDefinition } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { approveSignal, decideToolCallUpdate } from "../../src/contract/messages.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const refunds: string[] = [];
const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => (refunds.push(String(order)), `refunded order ${order}`),
});

const oneRefund = () =>
  conversationScript([toolCallTurn([{ id: "r1", name: "refund", input: { order: 42 } }]), textTurn("done")]);
const twoRefunds = () =>
  conversationScript([
    toolCallTurn([
      { id: "a", name: "refund", input: { order: 1 } },
      { id: "b", name: "refund", input: { order: 2 } },
    ]),
    textTurn("both handled"),
  ]);

function agent(name: string, permission: AgentDefinition["permission"], model = name): AgentDefinition {
  return defineAgent({ name, model, tools: [refund], permission });
}

const agents = [
  agent("asker", { ask: ["refund"] }),
  agent("pair", { ask: ["refund"] }),
  agent("deny-on-timeout", { ask: ["refund"], approvalTimeoutMs: 1_000 }),
  agent("allow-on-timeout", { ask: ["refund"], approvalTimeoutMs: 1_000, onTimeout: "allow" }),
  agent("fail-on-timeout", { ask: ["refund"], approvalTimeoutMs: 1_000, onTimeout: "fail" }),
];
const providers = {
  asker: oneRefund(),
  pair: twoRefunds(),
  "deny-on-timeout": oneRefund(),
  "allow-on-timeout": oneRefund(),
  "fail-on-timeout": oneRefund(),
};

/** Reads a run's events in the background; `until` waits for a matching event. */
function follow(client: AgentClient, started: { sessionId: string; runId: string; offset: number }) {
  const events: DurableEvent[] = [];
  const waiters: { test: (e: AgentEvent) => boolean; resolve: (e: AgentEvent) => void }[] = [];
  const done = (async () => {
    const run = client.session(started.sessionId).events(started.runId, { fromOffset: started.offset });
    for (;;) {
      const next = await run.next();
      if (next.done) return next.value;
      events.push(next.value);
      for (const waiter of waiters.splice(0))
        if (waiter.test(next.value)) waiter.resolve(next.value);
        else waiters.push(waiter);
    }
  })();
  const until = (test: (e: AgentEvent) => boolean) =>
    new Promise<AgentEvent>((resolve) => {
      const seen = events.find(test);
      if (seen) resolve(seen);
      else waiters.push({ test, resolve });
    });
  return { events, done, until };
}

const isType =
  <T extends AgentEvent["type"]>(type: T) =>
  (event: AgentEvent): event is Extract<AgentEvent, { type: T }> =>
    event.type === type;

describe("durable approvals", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("approvals");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents, providers });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("allowed: the session waits as awaiting_approval, the decision records who decided and why, the tool runs", async () => {
    const started = await client.start("asker", "refund order 42");
    const run = follow(client, started);
    const request = (await run.until(isType("approval_request"))) as Extract<
      AgentEvent,
      { type: "approval_request" }
    >;
    expect(request.call).toMatchObject({ id: "r1", name: "refund", input: { order: 42 } });
    const status = await client.session(started.sessionId).describe();
    expect(status.status).toBe("awaiting_approval");
    expect(status.pendingApprovals).toMatchObject([
      { callId: "r1", tool: "refund", input: { order: 42 }, runId: started.runId },
    ]);
    await expect
      .poll(
        async () => {
          const found = [];
          for await (const session of client.list({
            query: `AgentStatus = "awaiting_approval" AND WorkflowId = "${started.sessionId}"`,
          }))
            found.push(session.sessionId);
          return found;
        },
        { timeout: 10_000 },
      )
      .toEqual([started.sessionId]);
    // The Temporal UI reads current details through this built-in query.
    const metadata = await client
      .session(started.sessionId)
      .workflow.query<{ currentDetails?: string }>("__temporal_workflow_metadata");
    expect(metadata.currentDetails).toContain("awaiting approval");
    expect(metadata.currentDetails).toContain(
      `temporal workflow signal --workflow-id ${started.sessionId} --name approve --input '{"callId":"r1"}'`,
    );

    await client.session(started.sessionId).approve("r1", { actor: "alice", reason: "customer verified" });
    const result = await run.done;
    expect(result.text).toBe("done");
    expect(run.events.find(isType("approval_resolved"))).toMatchObject({
      id: "r1",
      decision: "allow",
      by: "user",
      actor: "alice",
      reason: "customer verified",
    });
    expect(run.events.filter(isType("permission_decision")).at(-1)).toMatchObject({
      decision: "allow",
      by: "user",
      actor: "alice",
    });
    expect(run.events.find(isType("tool_result"))).toMatchObject({
      result: { content: "refunded order 42" },
    });
    expect((await client.session(started.sessionId).describe()).status).toBe("idle");
    // The Temporal UI's timeline names the approval's timer.
    const history = await client.session(started.sessionId).workflow.fetchHistory();
    const timers = (history.events ?? []).filter((event) => event.timerStartedEventAttributes);
    const summaries = timers.map((event) =>
      defaultPayloadConverter.fromPayload(event.userMetadata!.summary!),
    );
    expect(summaries).toContain("approval of refund (call r1) times out");
  });

  it("denied: the tool never runs and the model reads why", async () => {
    const before = refunds.length;
    const started = await client.start("asker", "refund order 42");
    const run = follow(client, started);
    await run.until(isType("approval_request"));
    await client.session(started.sessionId).deny("r1", { actor: "bob", reason: "not eligible" });
    await run.done;
    expect(refunds.length).toBe(before);
    expect(run.events.find(isType("tool_result"))).toMatchObject({
      result: { content: "Error: denied by user: not eligible", isError: true },
    });
  });

  it("timed out, deny policy (the default): denied automatically", async () => {
    const before = refunds.length;
    const { events } = await collect(client.run("deny-on-timeout", "refund"));
    expect(refunds.length).toBe(before);
    expect(events.find(isType("approval_resolved"))).toMatchObject({
      decision: "deny",
      by: "auto",
      actor: "timeout",
    });
    expect(events.find(isType("tool_result"))?.result.content).toMatch(
      /^Error: approval failed: approval timed out: no decision on refund within 1 s/,
    );
  });

  it("timed out, allow policy: allowed automatically", async () => {
    const { events } = await collect(client.run("allow-on-timeout", "refund"));
    expect(events.find(isType("approval_resolved"))).toMatchObject({
      decision: "allow",
      by: "auto",
      actor: "timeout",
    });
    expect(events.find(isType("tool_result"))).toMatchObject({ result: { content: "refunded order 42" } });
  });

  it("timed out, fail policy: the run ends with a fatal error", async () => {
    const { events, result } = await collect(client.run("fail-on-timeout", "refund"));
    expect(result.stopReason).toBe("error");
    const error = events.find(isType("error"));
    expect(error).toMatchObject({ fatal: true });
    expect(error?.error.message).toMatch(/approval timed out/);
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "error" });
  });

  it("two approvals pending at once, answered out of order", async () => {
    const started = await client.start("pair", "refund both");
    const run = follow(client, started);
    const requested = (id: string) => (e: AgentEvent) => e.type === "approval_request" && e.call.id === id;
    await Promise.all([run.until(requested("a")), run.until(requested("b"))]);
    // Both are asked for in one step, so once the stream has told both the status must list both.
    const pending = (await client.session(started.sessionId).describe()).pendingApprovals.map(
      (p) => p.callId,
    );
    expect(pending.sort()).toEqual(["a", "b"]);
    await client.session(started.sessionId).approve("b");
    await client.session(started.sessionId).deny("a", { reason: "duplicate" });
    await run.done;
    const results = Object.fromEntries(
      run.events.flatMap((e) => (e.type === "tool_result" ? [[e.result.id, e.result.content]] : [])),
    );
    expect(results).toEqual({ a: "Error: denied by user: duplicate", b: "refunded order 2" });
  });

  it("a wrong decision is refused with the reason and the run is unharmed", async () => {
    const started = await client.start("asker", "refund order 42");
    const run = follow(client, started);
    await run.until(isType("approval_request"));
    await expect(client.session(started.sessionId).approve("nope")).rejects.toThrow(
      /no pending approval for call 'nope' \(pending: r1\)/,
    );
    const malformed = await client
      .session(started.sessionId)
      .workflow.executeUpdate(decideToolCallUpdate, { args: [{ callId: "r1", decision: "maybe" } as never] })
      .catch((e: Error & { cause?: Error }) => e.cause?.message);
    expect(malformed).toMatch(/'decision' must be "allow" or "deny"/);
    await client.session(started.sessionId).workflow.signal(approveSignal, { callId: "r1", actor: "ui" });
    await run.done;
    await expect(client.session(started.sessionId).approve("r1")).rejects.toThrow(
      /call 'r1' was already settled \(allowed by ui\)/,
    );
    expect(run.events.find(isType("approval_resolved"))).toMatchObject({ decision: "allow", actor: "ui" });
    expect(run.events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
  });

  it("an approval that arrives after the worker was restarted while waiting", async () => {
    const started = await client.start("asker", "refund order 42");
    const run = follow(client, started);
    await run.until(isType("approval_request"));
    await worker.stop();
    worker = await startTestWorker({ taskQueue, agents, providers });
    await client.session(started.sessionId).approve("r1", { actor: "carol" });
    const result = await run.done;
    expect(result.text).toBe("done");
    expect(run.events.find(isType("tool_result"))).toMatchObject({
      result: { content: "refunded order 42" },
    });
  });
});
