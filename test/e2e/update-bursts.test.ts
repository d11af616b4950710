import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { Message } from "../../src/kernel/vocabulary/messages.js";
import { askUserTool } from "../../src/kernel/builtin-tools/ask-user-tool.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { replayMode } from "../support/forced-replay.mjs";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import {
  startTestWorker,
  temporalAddress,
  testClient,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

/**
 * Without a workflow cache each update takes about a second and a half: every attempt replays the whole history,
 * and each update after a finished task needs the `taskBoundary` signal (docs/architecture.md). That pass sends less.
 */
const NO_CACHE = replayMode() === "no-cache";
/** Steers sent at once to one session: the burst the server's in-flight update limit (10) refused 992 of. */
const BURST = NO_CACHE ? 20 : 1_000;
/** Steers sent at once by 20 clients. */
const MANY_CLIENTS_BURST = NO_CACHE ? 40 : 200;
/** About six times what the burst takes on two busy cores. */
const BURST_TIMEOUT_MS = NO_CACHE ? 240_000 : 120_000;

let releaseWork: () => void = () => undefined;
const work = defineTool({
  name: "work",
  description: "works until released",
  schema: z.object({}),
  execute: () => new Promise<string>((resolve) => (releaseWork = () => resolve("worked"))),
});
const waiter = defineAgent({ name: "waiter", model: "work", tools: [work] });

/** Approvals and answers sent at once: one turn asks this many of each. */
const HUMAN_BURST = NO_CACHE ? 5 : 50;
const refunded: number[] = [];
const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => (refunded.push(order), `refunded ${order}`),
});
const clerk = defineAgent({
  name: "clerk",
  model: "clerk",
  tools: [refund, askUserTool()],
  permission: { ask: ["refund"] },
  maxParallelTools: 2 * HUMAN_BURST,
});
const orders = [...Array(HUMAN_BURST).keys()];
const clerkScript = () =>
  conversationScript([
    toolCallTurn([
      ...orders.map((order) => ({ id: `r${order}`, name: "refund", input: { order } })),
      ...orders.map((order) => ({
        id: `q${order}`,
        name: "ask_user",
        input: { question: `Note ${order}?` },
      })),
    ]),
    textTurn("all handled"),
  ]);
const workScript = () =>
  conversationScript([toolCallTurn([{ id: "w1", name: "work", input: {} }]), textTurn("finished")]);

/** A refusal as the test reports it: the error and what it wraps (the server's own words). */
const why = (error: unknown) => `${String(error)} (${String((error as { cause?: unknown }).cause)})`;

/** The reasons of the sends that were refused, once all settled. */
async function refusals(sends: Promise<unknown>[]): Promise<unknown[]> {
  return (await Promise.allSettled(sends)).flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
}

function expectNoneRefused(refused: unknown[]): void {
  expect({ refused: refused.length, first: refused.slice(0, 3).map(why) }).toEqual({ refused: 0, first: [] });
}

/** The texts of the transcript's user messages after the prompt, in order. */
function userTexts(messages: Message[]): string[] {
  return messages
    .filter((message) => message.role === "user" && typeof message.content === "string")
    .map((message) => message.content as string)
    .slice(1);
}

/** Clients whose connections do not retry: the server's pushback reaches the session client's own retry. */
async function clientsWithoutGrpcRetry(count: number, taskQueue: string) {
  const namespace = inject("temporalNamespace");
  const connect = () => Connection.connect({ address: temporalAddress(), interceptors: [] });
  const connections = await Promise.all([...Array(count).keys()].map(connect));
  const clients = connections.map(
    (c) => new AgentClient(new Client({ connection: c, namespace }), { taskQueue }),
  );
  return { clients, close: () => Promise.all(connections.map((c) => c.close())) };
}

describe("a burst of updates to one session", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("bursts");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [waiter, clerk],
      providers: { work: workScript(), clerk: clerkScript() },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  /** Starts a run, sends the burst while its tool works, then lets it end: what was refused, the steers delivered. */
  async function steerDuringTool(burst: (sessionId: string) => Promise<unknown>[]) {
    const started = await client.start("waiter", "do the work");
    const session = client.session(started.sessionId);
    let refused: unknown[] = [];
    for await (const event of session.events(started.runId, { fromOffset: started.offset })) {
      if (event.type !== "tool_call_start") continue;
      refused = await refusals(burst(started.sessionId));
      releaseWork();
    }
    return { refused, delivered: userTexts(await session.transcript()) };
  }

  it(
    `accepts ${BURST} steers sent at once by one client, each once, in the order they were sent`,
    async () => {
      const texts = [...Array(BURST).keys()].map((i) => `steer ${i}`);
      const began = Date.now();
      const { refused, delivered } = await steerDuringTool((sessionId) =>
        texts.map((text, i) => client.session(sessionId).steer(text, { id: `burst-${i}` })),
      );
      const seconds = (Date.now() - began) / 1000;
      console.log(
        `${BURST} steers into one session in ${seconds.toFixed(1)} s (${(BURST / seconds).toFixed(0)}/s)`,
      );
      expectNoneRefused(refused);
      expect(delivered).toEqual(texts);
    },
    BURST_TIMEOUT_MS,
  );

  it(
    "accepts steers sent at once by many clients (past the server's in-flight limit), each once",
    async () => {
      const { clients, close } = await clientsWithoutGrpcRetry(20, taskQueue);
      const texts = [...Array(MANY_CLIENTS_BURST).keys()].map((i) => `many ${i}`);
      const { refused, delivered } = await steerDuringTool((sessionId) =>
        texts.map((text, i) => clients[i % clients.length]!.session(sessionId).steer(text, { id: text })),
      ).finally(close);
      expectNoneRefused(refused);
      expect([...delivered].sort()).toEqual([...texts].sort());
    },
    BURST_TIMEOUT_MS,
  );

  it(
    `accepts ${HUMAN_BURST} approvals and ${HUMAN_BURST} answers sent at once, each once`,
    async () => {
      const started = await client.start("clerk", "handle the refunds");
      const session = client.session(started.sessionId);
      const asked = new Set<string>();
      const resolved: string[] = [];
      let sent = false;
      for await (const event of session.events(started.runId, { fromOffset: started.offset })) {
        if (event.type === "approval_request" || event.type === "input_request") asked.add(event.call.id);
        if (event.type === "approval_resolved" || event.type === "input_resolved") resolved.push(event.id);
        if (asked.size !== 2 * HUMAN_BURST || sent) continue;
        sent = true;
        const sends = orders.flatMap((order) => [
          session.approve(`r${order}`),
          session.answer(`q${order}`, `note ${order}`),
        ]);
        expectNoneRefused(await refusals(sends));
      }
      expect([...refunded].sort((a, b) => a - b)).toEqual(orders);
      expect(resolved.sort()).toEqual(orders.flatMap((order) => [`q${order}`, `r${order}`]).sort());
    },
    BURST_TIMEOUT_MS,
  );
});
