import { WorkflowUpdateFailedError } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { deltaReceipt } from "../../src/stream/temporal-delta-sink.js";
import type { DeltaReceipt, StreamDelta } from "../../src/stream/stream-delta.js";
import { textTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { publishDeltasUpdate, readStreamQuery } from "../../src/workflows/stream-messages.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

// The session tells a model activity's live-output publisher, in each "stored" answer, whether anyone has asked for
// live output lately, so output nobody reads is sent in fewer batches (docs/decisions/0014, phase 3).

const quiet = defineAgent({ name: "quiet", model: "quiet" });

describe("live output nobody reads", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("readers");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [quiet],
      providers: { quiet: conversationScript([textTurn("ok")], {}) },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("after ten batches with no reader the answer says unread; a reader asking for live output resets it", async () => {
    const sessionId = `readers-${Date.now()}`;
    await client.send("quiet", "hello", { sessionId });
    const handle = client.temporal.workflow.getHandle(sessionId);
    let at = 0;
    const publish = async (): Promise<DeltaReceipt | undefined> => {
      const delta: StreamDelta = { key: "manual:1", attempt: 1, kind: "text", at: at++, text: "x" };
      const error = await handle.executeUpdate(publishDeltasUpdate, { args: [[delta]] }).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
      return deltaReceipt(error as WorkflowUpdateFailedError);
    };
    const first: (DeltaReceipt | undefined)[] = [];
    for (let index = 0; index < 11; index++) first.push(await publish());
    expect(first.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => ({ unread: false })));
    expect(first[10]).toEqual({ unread: true });

    // A reader that asks for events only does not count; one that asks for live output does, and gets all of it.
    await handle.query(readStreamQuery, { from: 0 });
    expect(await publish()).toEqual({ unread: true });
    const read = await handle.query(readStreamQuery, { from: 0, deltas: {} });
    expect(read.deltas.map((delta) => delta.text).join("")).toBe("x".repeat(12));
    expect(await publish()).toEqual({ unread: false });
  });
});
