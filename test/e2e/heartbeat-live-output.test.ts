import { decodeFromPayloadsAtIndex } from "@temporalio/common/lib/internal-non-workflow/codec-helpers.js";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { ModelProvider } from "../../src/kernel/vocabulary/model.js";
import { temporalDeltaTransport } from "../../src/stream/delta-transport.js";
import type { LiveOutputSnapshot } from "../../src/stream/live-output-window.js";
import { readStreamQuery } from "../../src/contract/stream/stream-messages.js";
import {
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

// The Temporal-native transport (docs/decisions/0019): a model call's live output is in its activity's heartbeat
// details on the server, never in the session workflow; liveness heartbeats carry it too, and a follower reads it.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lets the test hold the model after its first piece, then release it. */
let release: () => void = () => undefined;
const held: ModelProvider = {
  id: "held",
  async *stream() {
    yield { type: "reasoning_delta", text: "Let me think. " };
    yield { type: "text_delta", text: "The first half, " };
    await new Promise<void>((resolve) => (release = resolve));
    yield { type: "text_delta", text: "then the second." };
    yield {
      type: "message_done",
      message: {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Let me think. " },
          { type: "text", text: "The first half, then the second." },
        ],
      },
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  },
};

// A short heartbeat timeout: the activity's liveness pulse (a third of it) beats several times while the model is held.
const agent = defineAgent({
  name: "held",
  model: "held",
  durable: { modelRetry: { heartbeatTimeoutMs: 900 } },
});

describe("live output in the model activity's heartbeats", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("heartbeats");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [agent],
      providers: { held },
      deltas: temporalDeltaTransport(),
    });
    const connection = await Connection.connect({ address: temporalAddress() });
    const temporal = new Client({ connection, namespace: inject("temporalNamespace") });
    client = new AgentClient(temporal, { taskQueue, deltas: "temporal" });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  /** The live output in the session's pending model activity's heartbeat details, decoded as a client does. */
  async function heartbeatOutput(sessionId: string): Promise<LiveOutputSnapshot | undefined> {
    const { raw } = await client.temporal.workflow.getHandle(sessionId).describe();
    const call = raw.pendingActivities?.find((activity) => activity.activityType?.name === "callModel");
    const payloads = call?.heartbeatDetails?.payloads;
    if (!payloads?.length) return undefined;
    const converter = client.temporal.options.loadedDataConverter;
    return decodeFromPayloadsAtIndex<LiveOutputSnapshot>(converter, 0, payloads);
  }

  it("the details hold the call's output so far, survive liveness heartbeats, and the session holds none", async () => {
    const started = await client.start("held", "go");
    const followed = (async () => {
      const texts: string[] = [];
      for await (const event of client.session(started.sessionId).events(started.runId, {
        fromOffset: started.offset,
      }))
        if (event.type === "text_delta" || event.type === "reasoning_delta")
          texts.push(`${event.type}:${event.text}`);
      return texts;
    })();
    const expected = {
      liveOutput: {
        key: `${started.runId}:1`,
        attempt: 1,
        reasoning: { at: 0, text: "Let me think. " },
        text: { at: 0, text: "The first half, " },
      },
    };
    await expect
      .poll(() => heartbeatOutput(started.sessionId), { timeout: 20_000, interval: 50 })
      .toEqual(expected);
    // Held for several liveness pulses (every 300 ms): each heartbeat's details replace the previous ones, so a
    // bare pulse would have erased the output.
    await sleep(1_500);
    expect(await heartbeatOutput(started.sessionId)).toEqual(expected);
    const page = await client.temporal.workflow
      .getHandle(started.sessionId)
      .query(readStreamQuery, { from: 0 });
    expect(page.deltas).toEqual([]);
    expect(page.quiet).toBe(false);

    release();
    const texts = await followed;
    // In order and complete, the tail (never heartbeated before the activity completed, or never read) included.
    expect(texts.filter((text) => text.startsWith("reasoning_delta")).join("")).toBe(
      "reasoning_delta:Let me think. ",
    );
    expect(
      texts
        .filter((text) => text.startsWith("text_delta"))
        .map((text) => text.slice(11))
        .join(""),
    ).toBe("The first half, then the second.");
  });
});
