import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { temporal } from "@temporalio/proto";
import { inject } from "vitest";
import { RUN_INPUT_LIMIT_BYTES, RunInputTooLargeError, type AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const chat = defineAgent({ name: "chat", model: "chat" });
const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded order ${order}`,
});
const asker = defineAgent({
  name: "asker",
  model: "asker",
  tools: [refund],
  permission: { ask: ["refund"] },
});
const bulky = defineAgent({
  name: "bulky",
  model: "bulky",
  tools: [refund],
  permission: { ask: ["refund"] },
});

const bytes = (text: string) => new TextEncoder().encode(text);
type Payload = temporal.api.common.v1.IPayload;
const payload = (encoding: string | undefined, data: string): Payload => ({
  metadata: encoding === undefined ? {} : { encoding: bytes(encoding) },
  data: bytes(data),
});

/** The payloads a person can send by mistake from the UI's form or `temporal workflow signal --input-meta`. */
const HOSTILE: { label: string; payload: Payload; reason: RegExp }[] = [
  { label: "malformed JSON", payload: payload("json/plain", '{"id": "x", content: oops'), reason: /JSON/ },
  { label: "an unknown encoding", payload: payload("text/yaml", "id: x"), reason: /Unknown encoding/ },
  { label: "no encoding", payload: payload(undefined, "{}"), reason: /no encoding/ },
];

describe("no input from outside fails a workflow task", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("hostile");

  beforeAll(async () => {
    // Payloads inline on both sides, as the client's (its run input limit is the inline one): a client without the
    // workers' storage could not read what they stored.
    worker = await startTestWorker({
      taskQueue,
      storage: false,
      agents: [chat, asker, bulky],
      providers: {
        chat: fakeProvider([textTurn("ok")], { onExhausted: "repeat-last" }),
        bulky: conversationScript([
          toolCallTurn([{ id: "b1", name: "refund", input: { order: 1, note: "n".repeat(1_000_000) } }]),
          textTurn("done"),
        ]),
        asker: conversationScript([
          toolCallTurn([{ id: "r1", name: "refund", input: { order: 7 } }]),
          textTurn("refunded"),
        ]),
      },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const rawSignal = (sessionId: string, signalName: string, input: Payload) =>
    client.temporal.workflowService.signalWorkflowExecution({
      namespace: inject("temporalNamespace"),
      workflowExecution: { workflowId: sessionId },
      signalName,
      input: { payloads: [input] },
      identity: "hostile-test",
      requestId: randomUUID(),
    });

  it("undecodable signals are listed with their reason; the session keeps working", async () => {
    const sessionId = `hostile-signals-${randomUUID()}`;
    await client.send("chat", "hello", { sessionId });
    const names = ["steer", "followUp", "approve", "deny", "answer", "interrupt", "cancel"];
    for (const { payload: bad } of HOSTILE) for (const name of names) await rawSignal(sessionId, name, bad);
    const expected = HOSTILE.length * names.length;
    await expect
      .poll(async () => (await client.session(sessionId).describe()).rejectedSignals.length, {
        timeout: 15_000,
      })
      .toBe(Math.min(expected, 10));
    const status = await client.session(sessionId).describe();
    expect(status.rejectedSignals.every((line) => /signal ignored: undecodable payload/.test(line))).toBe(
      true,
    );
    expect(status.rejectedSignals.at(-1)).toMatch(/^cancel signal ignored: .*no encoding/);
    const next = await client.send("chat", "still there?", { sessionId });
    expect(next.text).toBe("ok");
    // No workflow task failed on the way.
    const history = await client.session(sessionId).workflow.fetchHistory();
    const failedTasks = (history.events ?? []).filter((event) => event.workflowTaskFailedEventAttributes);
    expect(failedTasks).toEqual([]);
  });

  it("each kind of undecodable payload is named in the rejection", async () => {
    const sessionId = `hostile-kinds-${randomUUID()}`;
    await client.send("chat", "hello", { sessionId });
    for (const { payload: bad } of HOSTILE) await rawSignal(sessionId, "steer", bad);
    await expect
      .poll(async () => (await client.session(sessionId).describe()).rejectedSignals.length, {
        timeout: 15_000,
      })
      .toBe(HOSTILE.length);
    const { rejectedSignals } = await client.session(sessionId).describe();
    HOSTILE.forEach(({ reason }, index) => expect(rejectedSignals[index]).toMatch(reason));
  });

  it("an undecodable update is rejected by its validator with the reason", async () => {
    const sessionId = `hostile-update-${randomUUID()}`;
    await client.send("chat", "hello", { sessionId });
    const response = await client.temporal.workflowService.updateWorkflowExecution({
      namespace: inject("temporalNamespace"),
      workflowExecution: { workflowId: sessionId },
      request: {
        meta: { updateId: randomUUID(), identity: "hostile-test" },
        input: { name: "queueSteer", args: { payloads: [HOSTILE[0]!.payload] } },
      },
      waitPolicy: { lifecycleStage: 3 }, // UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_COMPLETED
    });
    expect(response.outcome?.failure?.message).toMatch(/queueSteer: undecodable payload .*JSON/);
    expect((await client.send("chat", "again", { sessionId })).text).toBe("ok");
  });

  it("a query with an undecodable argument answers; the session keeps working", async () => {
    const sessionId = `hostile-query-${randomUUID()}`;
    await client.send("chat", "hello", { sessionId });
    const response = await client.temporal.workflowService.queryWorkflow({
      namespace: inject("temporalNamespace"),
      execution: { workflowId: sessionId },
      query: { queryType: "runSummary", queryArgs: { payloads: [HOSTILE[0]!.payload] } },
    });
    expect(response.queryRejected ?? null).toBeNull();
    expect((await client.send("chat", "again", { sessionId })).text).toBe("ok");
  });

  it("an undecodable approval does not decide anything; a good one still does", async () => {
    const sessionId = `hostile-approve-${randomUUID()}`;
    const started = await client.start("asker", "refund 7", { sessionId });
    await expect
      .poll(async () => (await client.session(sessionId).describe()).status, { timeout: 15_000 })
      .toBe("awaiting_approval");
    await rawSignal(sessionId, "approve", payload("json/plain", '{"callId": "r1"'));
    await expect
      .poll(async () => (await client.session(sessionId).describe()).rejectedSignals, { timeout: 15_000 })
      .toEqual([expect.stringMatching(/^approve signal ignored: undecodable payload/)]);
    expect((await client.session(sessionId).describe()).status).toBe("awaiting_approval");
    await client.session(sessionId).approve("r1");
    const events = client.session(sessionId).events(started.runId, { fromOffset: started.offset });
    for (;;) {
      const next = await events.next();
      if (next.done) {
        expect(next.value.text).toBe("refunded");
        break;
      }
    }
  });

  it("an oversized run input is refused by the client with its size and the limit; no session is created", async () => {
    const sessionId = `oversized-${randomUUID()}`;
    const error = await client
      .start("chat", "x".repeat(3 * 1024 * 1024), { sessionId })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(RunInputTooLargeError);
    expect((error as Error).message).toMatch(
      /^run input is 3\.0 MB; the limit is 1\.0 MB \(payloads travel inline: turn on external payload storage/,
    );
    await expect(client.session(sessionId).describe()).rejects.toThrow(/not found/);
    const images = [
      { type: "image" as const, data: "A".repeat(RUN_INPUT_LIMIT_BYTES), mimeType: "image/png" },
    ];
    await expect(client.start("chat", "look", { sessionId, images })).rejects.toThrow(/the limit is 1\.0 MB/);
  });

  it("an input just under the limit runs", async () => {
    const result = await client.send("chat", "y".repeat(RUN_INPUT_LIMIT_BYTES - 1024));
    expect(result.text).toBe("ok");
  });

  it("the status stays small: a huge pending call input is shown as a clipped preview", async () => {
    const sessionId = `bulky-${randomUUID()}`;
    await client.start("bulky", "refund with a note", { sessionId });
    await expect
      .poll(async () => (await client.session(sessionId).describe()).status, { timeout: 15_000 })
      .toBe("awaiting_approval");
    const [pending] = (await client.session(sessionId).describe()).pendingApprovals;
    expect(typeof pending!.input).toBe("string");
    expect((pending!.input as string).length).toBeLessThanOrEqual(2_000);
    expect(pending!.input as string).toMatch(/^\{"order":1,"note":"nnn/);
    await client.session(sessionId).cancel();
  });

  it("a session started by hand with an undecodable or malformed input fails at once with the reason", async () => {
    const badPayload = `bad-start-${randomUUID()}`;
    await client.temporal.workflowService.startWorkflowExecution({
      namespace: inject("temporalNamespace"),
      workflowId: badPayload,
      workflowType: { name: "agentSession" },
      taskQueue: { name: client.taskQueueFor("chat") },
      input: { payloads: [HOSTILE[0]!.payload] },
      identity: "hostile-test",
      requestId: randomUUID(),
    });
    const failure = await client
      .session(badPayload)
      .workflow.result()
      .catch((error: Error) => error);
    expect((failure as Error & { cause?: Error }).cause?.message).toMatch(
      /^session input rejected: undecodable payload .*JSON/,
    );
    const malformed = `malformed-start-${randomUUID()}`;
    await client.temporal.workflow.start("agentSession", {
      workflowId: malformed,
      taskQueue: client.taskQueueFor("chat"),
      args: [{ agent: "chat" }],
    });
    const second = await client
      .session(malformed)
      .workflow.result()
      .catch((error: Error) => error);
    expect((second as Error & { cause?: Error }).cause?.message).toBe(
      "session input rejected: 'sessionId' must be a non-empty string",
    );
  });
});
