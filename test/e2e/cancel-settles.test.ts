import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { askUserTool } from "../../src/kernel/builtin-tools/ask-user-tool.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { approveSignal } from "../../src/contract/messages.js";
import { collect } from "../support/collect.js";
import {
  QUERY_POLL_TIMEOUT_MS,
  startTestWorker,
  testClient,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded order ${order}`,
});
const approver = defineAgent({
  name: "approver",
  model: "approver",
  tools: [refund],
  permission: { ask: ["refund"] },
});
const questioner = defineAgent({ name: "questioner", model: "questioner", tools: [askUserTool()] });

const isType =
  <T extends AgentEvent["type"]>(type: T) =>
  (event: AgentEvent): event is Extract<AgentEvent, { type: T }> =>
    event.type === type;

describe("a cancelled run settles everything it was waiting on", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("cancel-settles");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [approver, questioner],
      providers: {
        approver: conversationScript([
          toolCallTurn([
            { id: "r1", name: "refund", input: { order: 1 } },
            { id: "r2", name: "refund", input: { order: 2 } },
          ]),
          textTurn("refunded"),
        ]),
        questioner: conversationScript([
          toolCallTurn([{ id: "q1", name: "ask_user", input: { question: "Which colour?" } }]),
          textTurn("noted"),
        ]),
      },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const waitFor = (sessionId: string, status: string) =>
    expect
      .poll(async () => (await client.session(sessionId).describe()).status, {
        timeout: QUERY_POLL_TIMEOUT_MS,
      })
      .toBe(status);

  it("cancelling during an approval settles it: status, events, and a later approve is refused", async () => {
    const sessionId = `cancel-approval-${randomUUID()}`;
    const started = await client.start("approver", "refund both", { sessionId });
    await waitFor(sessionId, "awaiting_approval");
    expect((await client.session(sessionId).describe()).pendingApprovals.length).toBeGreaterThan(0);
    expect(await client.session(sessionId).cancel({ reason: "customer hung up" })).toEqual([started.runId]);

    const { events, result } = await collect(
      client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    );
    expect(result.stopReason).toBe("aborted");
    const resolved = events.filter(isType("approval_resolved"));
    expect(resolved.length).toBeGreaterThan(0);
    expect(resolved[0]).toMatchObject({ id: "r1", decision: "deny", by: "auto" });

    const status = await client.session(sessionId).describe();
    expect(status.status).toBe("idle");
    expect(status.pendingApprovals).toEqual([]);
    await expect(client.session(sessionId).approve("r1")).rejects.toThrow(
      /call 'r1' was already settled \(cancelled: customer hung up\)/,
    );
    await client.session(sessionId).workflow.signal(approveSignal, { callId: "r2" });
    await expect
      .poll(async () => (await client.session(sessionId).describe()).rejectedSignals, {
        timeout: QUERY_POLL_TIMEOUT_MS,
      })
      .toEqual([expect.stringMatching(/^approve signal ignored: call 'r2' was already settled \(cancelled/)]);
  });

  it("the search attribute leaves awaiting_approval when the run is cancelled", async () => {
    const sessionId = `cancel-visibility-${randomUUID()}`;
    const started = await client.start("approver", "refund both", { sessionId });
    await waitFor(sessionId, "awaiting_approval");
    await client.session(sessionId).cancel();
    await collect(client.session(sessionId).events(started.runId, { fromOffset: started.offset }));
    await expect
      .poll(
        async () => {
          const description = await client.session(sessionId).workflow.describe();
          return description.searchAttributes.AgentStatus;
        },
        { timeout: 15_000 },
      )
      .toEqual(["idle"]);
  });

  it("cancelling during a question settles it: a diagnostic says so, a later answer is refused", async () => {
    const sessionId = `cancel-question-${randomUUID()}`;
    const started = await client.start("questioner", "ask me", { sessionId });
    await waitFor(sessionId, "awaiting_input");
    await client.session(sessionId).cancel();

    const { events, result } = await collect(
      client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    );
    expect(result.stopReason).toBe("aborted");
    expect(events.filter(isType("diagnostic"))).toContainEqual(
      expect.objectContaining({
        code: "question_cancelled",
        message: expect.stringMatching(/'q1'.*cancelled/),
      }),
    );
    const status = await client.session(sessionId).describe();
    expect(status.status).toBe("idle");
    expect(status.pendingQuestions).toEqual([]);
    await expect(client.session(sessionId).answer("q1", "red")).rejects.toThrow(
      /call 'q1' was already settled \(cancelled\)/,
    );
  });

  it("the session runs again after a cancelled approval", async () => {
    const sessionId = `cancel-then-run-${randomUUID()}`;
    const first = await client.start("approver", "refund both", { sessionId });
    await waitFor(sessionId, "awaiting_approval");
    await client.session(sessionId).cancel();
    await collect(client.session(sessionId).events(first.runId, { fromOffset: first.offset }));
    const { result } = await collect(client.run("approver", "try again", { sessionId }));
    expect(result.stopReason).toBe("stop");
    expect((await client.session(sessionId).describe()).status).toBe("idle");
  });

  it("closing a client while it follows a waiting run ends the stream with an error that says so, instead of retrying against the closed connection", async () => {
    const closing = await testClient(taskQueue);
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of closing.run("approver", "refund both")) seen.push(event.type);
    })();
    const outcome = following.then(
      () => "ended without an error",
      (error: unknown) => String(error),
    );
    // The run waits for an approval nobody gives: the reader polls on until the client closes.
    while (!seen.includes("approval_request")) await new Promise((resolve) => setTimeout(resolve, 50));
    await closing.close();
    expect(await outcome).toMatch(/AgentClient was closed while reading session/);
  });
});
