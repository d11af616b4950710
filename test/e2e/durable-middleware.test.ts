import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../src/agent.js";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent, type AgentDefinition } from "../../src/define-agent.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import { implementEffect } from "../../src/kernel/vocabulary/effects.js";
import { retry } from "../../src/kernel/middleware/retry-middleware.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { collect } from "../support/collect.js";
import { eventShape } from "../support/event-shape.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import { recordCall, recordCalls, secretGate, systemNote } from "./fixtures/middleware/audit-middleware.js";
import { effectAfterTool, settlePayment } from "./fixtures/middleware/effect-middleware.js";

const NOTE = "[note] answer in one sentence";

const lookup = defineTool({
  name: "lookup",
  description: "looks a key up",
  schema: z.object({ key: z.string() }),
  execute: ({ key }) => `value of ${key}`,
});

/** The scripted model: two tool turns, then an answer. Stateless, so each driver gets its own copy. */
const script = () =>
  conversationScript([
    toolCallTurn([{ id: "c1", name: "lookup", input: { key: "colour" } }]),
    toolCallTurn([
      { id: "c2", name: "lookup", input: { key: "size" } },
      { id: "c3", name: "lookup", input: { key: "weight" } },
    ]),
    textTurn("Blue, large and heavy."),
  ]);

/** Where the `record_call` effect writes, per session: outside the run, as an audit store would be. */
const recorded = new Map<string, string[]>();
const recordCallImpl = implementEffect(recordCall, ({ tool, turn }, ctx) => {
  const calls = recorded.get(ctx.sessionId) ?? [];
  calls.push(`${turn}:${tool}`);
  recorded.set(ctx.sessionId, calls);
  return { count: calls.length };
});

const audited = defineAgent({
  name: "audited",
  model: "audited",
  tools: [lookup],
  use: [systemNote({ note: NOTE }), recordCalls(), retry({ maxRetries: 1 })],
  effects: [recordCallImpl],
});
const unimplemented = defineAgent({
  name: "unimplemented",
  model: "audited",
  tools: [lookup],
  use: [recordCalls()],
});
/** The run waits in `settle_payment` until it is cancelled; the implementation reports what its signal did. */
let paymentStarted: () => void = () => undefined;
let paymentAborted: (reason: string) => void = () => undefined;
const settling = defineAgent({
  name: "settling",
  model: "settling",
  tools: [lookup],
  use: [effectAfterTool({ effect: "slow" })],
  effects: [
    implementEffect(
      settlePayment,
      (_input, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            paymentAborted(String(ctx.signal.reason));
            resolve("stopped");
          });
          paymentStarted();
        }),
    ),
  ],
});

const gated = defineAgent({
  name: "gated",
  model: "gated",
  tools: [lookup],
  use: [secretGate()],
});

describe("user middleware in durable runs", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const durableModel = script();
  const taskQueue = uniqueTaskQueue("middleware");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [audited, unimplemented, gated, settling],
      providers: {
        audited: durableModel,
        settling: conversationScript([
          toolCallTurn([{ id: "s1", name: "lookup", input: { key: "invoice" } }]),
          textTurn("settled"),
        ]),
        gated: conversationScript([
          toolCallTurn([
            { id: "g1", name: "lookup", input: { key: "public" } },
            { id: "g2", name: "lookup", input: { key: "secret-plan" } },
          ]),
          textTurn("done"),
        ]),
      },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("a beforeModel note and a wrapToolCall that records through an effect give the same events in both drivers", async () => {
    const localModel = script();
    const local = await collect(
      createAgent(localAgentConfig(audited, localModel)).run("describe the parcel", {
        sessionId: "local-audited",
      }),
    );
    const sessionId = `audited-${Date.now()}`;
    const durable = await collect(client.run("audited", "describe the parcel", { sessionId }));

    // The two calls of turn 2 run in parallel, so which one the effect counts second differs from run to run.
    const uncounted = (events: typeof durable.events) =>
      JSON.parse(JSON.stringify(eventShape(events)).replace(/\[recorded #\d+\]/g, "[recorded]")) as unknown;
    expect(uncounted(durable.events)).toEqual(uncounted(local.events));
    expect(durable.result.text).toBe("Blue, large and heavy.");
    const results = durable.events.flatMap((event) =>
      event.type === "tool_result" ? [event.result.content] : [],
    );
    expect(results[0]).toBe("value of colour [recorded #1]");
    expect(
      results
        .slice(1)
        .map((content) => content.replace(/ #\d\]$/, "]"))
        .sort(),
    ).toEqual(["value of size [recorded]", "value of weight [recorded]"]);
    expect(
      results
        .slice(1)
        .map((content) => content.slice(-3))
        .sort(),
    ).toEqual(["#2]", "#3]"]);
    // The note reached every model request, once, in both drivers.
    for (const model of [durableModel, localModel]) {
      const requests = model.requests.filter((request) =>
        JSON.stringify(request).includes("describe the parcel"),
      );
      expect(requests.length).toBeGreaterThanOrEqual(3);
      for (const request of requests.slice(-3))
        expect(request.messages.filter((message) => message.content === NOTE)).toHaveLength(1);
    }
    // Each call was recorded exactly once by each driver: durable effects are activities whose results replay.
    expect(recorded.get(sessionId)?.sort()).toEqual(["1:lookup", "2:lookup", "2:lookup"]);
    expect(recorded.get("local-audited")).toHaveLength(3);

    const history = await client.session(sessionId).workflow.fetchHistory();
    const effects = (history.events ?? []).flatMap((event) => {
      const attributes = event.activityTaskScheduledEventAttributes;
      return attributes?.activityType?.name === "runEffect" ? [attributes] : [];
    });
    expect(effects).toHaveLength(3);
    // record_call is idempotent: retried with backoff, unlike an at-most-once tool.
    for (const effect of effects) expect(effect.retryPolicy?.maximumAttempts).toBe(5);
  });

  it("an effect without an implementation on the worker reaches the middleware as a clear error", async () => {
    const events: DurableEvent[] = [];
    for await (const event of client.run("unimplemented", "describe the parcel")) events.push(event);
    const results = events.flatMap((event) => (event.type === "tool_result" ? [event.result] : []));
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.content).toContain("effect 'record_call' is not implemented for agent 'unimplemented'");
    }
    expect(events.at(-1)).toMatchObject({ type: "done" });
  });

  it("a permission gate with a `where` condition and audit, defined in a middleware module, asks the session's approvers", async () => {
    const sessionId = `gated-${Date.now()}`;
    const events: DurableEvent[] = [];
    for await (const event of client.run("gated", "look both up", { sessionId })) {
      events.push(event);
      if (event.type === "approval_request") {
        expect(event.call.id).toBe("g2");
        const pending = await client.session(sessionId).describe();
        expect(pending.pendingApprovals.map((approval) => approval.callId)).toEqual(["g2"]);
        await client.session(sessionId).approve(event.call.id, { actor: "alice", reason: "fine" });
      }
    }
    const decisions = events.flatMap((event) => (event.type === "permission_decision" ? [event] : []));
    expect(decisions.map((decision) => [decision.call.id, decision.decision, decision.by])).toEqual(
      expect.arrayContaining([
        ["g1", "allow", "policy"],
        ["g2", "allow", "user"],
      ]),
    );
    expect(decisions.find((decision) => decision.call.id === "g2")).toMatchObject({
      ruleId: "secret-keys",
      actor: "alice",
    });
    expect(
      events.flatMap((event) => (event.type === "tool_result" ? [event.result.content] : [])).sort(),
    ).toEqual(["value of public", "value of secret-plan"]);
  });

  it("cancelling the run reaches an effect in flight: its activity heartbeats, so the cancel arrives at its signal", async () => {
    const started = new Promise<void>((resolve) => (paymentStarted = resolve));
    const aborted = new Promise<string>((resolve) => (paymentAborted = resolve));
    const sessionId = `settling-${Date.now()}`;
    const events = collect(client.run("settling", "settle the invoice", { sessionId }));
    await started;
    await client.session(sessionId).cancel();
    // The effect never heartbeats itself and its timeout is 10 minutes: only the pulse delivers the cancel (without it,
    // the heartbeat timeout would end it as TIMED_OUT).
    expect(await aborted).toBe("CancelledFailure: CANCELLED");
    expect((await events).result.stopReason).toBe("aborted");
  });

  describe("middleware that cannot run durably", () => {
    it("the worker refuses an agent whose middleware is a plain object, naming the agent and the middleware", () => {
      const plain: AgentDefinition = defineAgent({
        name: "plain",
        model: "m",
        use: [{ name: "closure-logger", beforeModel: () => undefined }],
      });
      // In-process it runs as any middleware does.
      expect(() => localAgentConfig(plain, script())).not.toThrow();
      return expect(
        startTestWorker({ taskQueue: uniqueTaskQueue("plain"), agents: [plain], providers: { m: script() } }),
      ).rejects.toThrow(/agent 'plain': middleware 'closure-logger' cannot run durably/);
    });
  });
});
