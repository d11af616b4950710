import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import {
  connectTestClient,
  startTestWorker,
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

describe("closing a client while it follows a run", () => {
  let worker: RunningWorker;
  const taskQueue = uniqueTaskQueue("client-close");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [approver],
      providers: {
        approver: conversationScript([
          toolCallTurn([{ id: "r1", name: "refund", input: { order: 1 } }]),
          textTurn("refunded"),
        ]),
      },
    });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("ends the stream with an error that says so, instead of retrying against the closed connection", async () => {
    const client = await connectTestClient(taskQueue);
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of client.run("approver", "refund order 1")) seen.push(event.type);
    })();
    const outcome = following.then(
      () => "ended without an error",
      (error: unknown) => String(error),
    );
    // The run waits for an approval nobody gives: the reader polls on until the client closes.
    while (!seen.includes("approval_request")) await new Promise((resolve) => setTimeout(resolve, 50));
    await client.close();
    expect(await outcome).toMatch(/AgentClient was closed while reading session/);
  });
});
