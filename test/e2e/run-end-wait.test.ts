import { Worker } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentClient, type DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { loadWorkflowBundle } from "../../src/runtime/workflow-bundle.js";
import { updateWithRetry } from "../../src/runtime/update-with-retry.js";
import { MAX_RUN_END_WAITERS } from "../../src/workflows/run-end-wait.js";
import { awaitRunEndUpdate } from "../../src/workflows/messages.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

// A client following a run asks the session, with the `awaitRunEnd` update, to answer when the run has ended, so it
// reads the run's end at once instead of at its next poll (docs/decisions/0014, phase 14). The wait is a hint: these
// tests check what it records, what it refuses, and that it never holds a session up.

const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded order ${order}`,
});
const askRefund = (order: number) =>
  conversationScript([toolCallTurn([{ id: "r1", name: "refund", input: { order } }]), textTurn("done")]);
const agents = [
  defineAgent({ name: "asker", model: "asker", tools: [refund], permission: { ask: ["refund"] } }),
  defineAgent({
    name: "twice",
    model: "twice",
    tools: [refund],
    permission: { ask: ["refund"] },
    // Every turn boundary continues as new, while the follower's wait is in flight.
    durable: { continueAsNew: { maxHistoryEvents: 5 } },
  }),
];
const providers = {
  asker: askRefund(7),
  twice: conversationScript([
    toolCallTurn([{ id: "a", name: "refund", input: { order: 1 } }]),
    toolCallTurn([{ id: "b", name: "refund", input: { order: 2 } }]),
    textTurn("both"),
  ]),
};

describe("awaitRunEnd: a follower's wake-up at a run's end", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("run-end-wait");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents, providers });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  /** The updates a session execution accepted, and the answers of those that completed (decoded JSON). */
  async function updatesOf(sessionId: string, runId?: string) {
    const history = await client.temporal.workflow.getHandle(sessionId, runId).fetchHistory();
    const accepted: string[] = [];
    const answers: unknown[] = [];
    for (const event of history.events ?? []) {
      const name = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
      if (name) accepted.push(name);
      const data =
        event.workflowExecutionUpdateCompletedEventAttributes?.outcome?.success?.payloads?.[0]?.data;
      if (data) answers.push(JSON.parse(Buffer.from(data).toString("utf8")));
    }
    return { accepted, answers };
  }

  async function pendingApproval(sessionId: string, callId: string) {
    await expect
      .poll(async () => (await client.describe(sessionId)).pendingApprovals.map((item) => item.callId), {
        timeout: 15_000,
      })
      .toContain(callId);
  }

  async function follow(started: { sessionId: string; runId: string; offset: number }) {
    const events: DurableEvent[] = [];
    for await (const event of client.events(started.sessionId, started.runId, { fromOffset: started.offset }))
      events.push(event);
    return events;
  }

  it("is accepted while the run waits for a person and answered {ended: true} at its end; the follower misses nothing", async () => {
    const started = await client.start("asker", "refund order 7");
    const followed = follow(started);
    await pendingApproval(started.sessionId, "r1");
    await expect
      .poll(async () => (await updatesOf(started.sessionId)).accepted, { timeout: 15_000 })
      .toContain(awaitRunEndUpdate.name);
    await client.approve(started.sessionId, "r1");
    const events = await followed;
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === "done")).toHaveLength(1);
    expect(types).toEqual(expect.arrayContaining(["approval_request", "tool_result", "done"]));
    expect(types.at(-1)).toBe("done");
    const { accepted, answers } = await updatesOf(started.sessionId);
    expect(accepted.filter((name) => name === awaitRunEndUpdate.name)).toHaveLength(1);
    expect(answers).toContainEqual({ ended: true });
  });

  it("is not sent by a client made with runEndWake: false, which follows the run to its end by reading alone", async () => {
    const polling = new AgentClient(client.temporal, { taskQueue, runEndWake: false });
    const started = await polling.start("asker", "refund order 7");
    const events: DurableEvent[] = [];
    const followed = (async () => {
      for await (const event of polling.events(started.sessionId, started.runId, {
        fromOffset: started.offset,
      }))
        events.push(event);
    })();
    await pendingApproval(started.sessionId, "r1");
    await polling.approve(started.sessionId, "r1");
    await followed;
    expect(events.at(-1)?.type).toBe("done");
    expect((await updatesOf(started.sessionId)).accepted).not.toContain(awaitRunEndUpdate.name);
  });

  it("refuses, saying why, a malformed wait, one for an unknown or ended run, and one over the waiters' limit; a refusal records nothing", async () => {
    const started = await client.start("asker", "refund order 7");
    const handle = client.temporal.workflow.getHandle(started.sessionId);
    // Sent as any client must: again, with the same id, while the session refuses it as busy (update-admission.ts).
    const wait = (request: unknown) =>
      updateWithRetry((updateId) =>
        handle.executeUpdate(awaitRunEndUpdate, { args: [request as { runId: string }], updateId }),
      );
    const refusal = async (request: unknown) => {
      const error = (await wait(request).catch((caught: unknown) => caught)) as Error & { cause?: Error };
      return error.cause?.message ?? String(error);
    };
    expect(await refusal({})).toMatch(/awaitRunEnd: 'runId' must be a non-empty string/);
    expect(await refusal("run")).toMatch(/awaitRunEnd: expected an object \{runId\}/);
    expect(await refusal({ runId: "no-such-run" })).toMatch(
      /awaitRunEnd: no run 'no-such-run' is queued or running in this session/,
    );

    await pendingApproval(started.sessionId, "r1");
    const waiting = Array.from({ length: MAX_RUN_END_WAITERS }, () => wait({ runId: started.runId }));
    await expect
      .poll(
        async () => (await updatesOf(started.sessionId)).accepted.filter((name) => name === "awaitRunEnd"),
        {
          timeout: 15_000,
        },
      )
      .toHaveLength(MAX_RUN_END_WAITERS);
    expect(await refusal({ runId: started.runId })).toMatch(
      new RegExp(`awaitRunEnd: ${MAX_RUN_END_WAITERS} clients already wait on this session's runs`),
    );
    // The waits hold no approval up: the decision (an update too) is taken while they wait.
    await client.approve(started.sessionId, "r1");
    expect(await Promise.all(waiting)).toEqual(Array(MAX_RUN_END_WAITERS).fill({ ended: true }));
    expect(await refusal({ runId: started.runId })).toMatch(new RegExp(`run '${started.runId}' has ended`));

    const { accepted } = await updatesOf(started.sessionId);
    expect(accepted.filter((name) => name === awaitRunEndUpdate.name)).toHaveLength(MAX_RUN_END_WAITERS);
  });

  it("answers a cancel during an approval at once, and leaves no approval pending", async () => {
    const started = await client.start("asker", "refund order 7");
    await pendingApproval(started.sessionId, "r1");
    const handle = client.temporal.workflow.getHandle(started.sessionId);
    const waited = updateWithRetry((updateId) =>
      handle.executeUpdate(awaitRunEndUpdate, { args: [{ runId: started.runId }], updateId }),
    );
    await expect
      .poll(async () => (await updatesOf(started.sessionId)).accepted, { timeout: 15_000 })
      .toContain(awaitRunEndUpdate.name);
    await client.cancel(started.sessionId, { reason: "not today" });
    expect(await waited).toEqual({ ended: true });
    expect((await client.describe(started.sessionId)).pendingApprovals).toEqual([]);
    expect(
      (await client.handle(started.sessionId).query("runSummary", started.runId)) as object,
    ).toMatchObject({
      stopReason: "aborted",
    });
  });

  it("answers {ended: false} when the session continues as new mid-run, and the follower waits again on the next execution", async () => {
    const started = await client.start("twice", "two refunds");
    const followed = follow(started);
    await pendingApproval(started.sessionId, "a");
    await expect
      .poll(async () => (await updatesOf(started.sessionId)).accepted, { timeout: 15_000 })
      .toContain(awaitRunEndUpdate.name);
    const firstExecution = (await client.temporal.workflow.getHandle(started.sessionId).describe()).runId;
    await client.approve(started.sessionId, "a");
    await pendingApproval(started.sessionId, "b");
    // The follower's wait reaches the execution that waits for "b" (it may be refused as busy and sent again:
    // update-admission.ts) before the run goes on.
    const waitingForB = (await client.temporal.workflow.getHandle(started.sessionId).describe()).runId;
    await expect
      .poll(async () => (await updatesOf(started.sessionId, waitingForB)).accepted, { timeout: 15_000 })
      .toContain(awaitRunEndUpdate.name);
    await client.approve(started.sessionId, "b");
    const events = await followed;
    expect(events.filter((event) => event.type === "tool_call_end").map((event) => event.id)).toEqual([
      "a",
      "b",
    ]);
    expect(events.at(-1)?.type).toBe("done");
    // The wait did not hold a continue-as-new up: each execution that took it answered it, {ended: false} where the
    // run went on in the next execution, {ended: true} where it ended (a wait sent there may come too late: the run's
    // last turn can end it while the session refuses the wait as busy, and the follower then just reads the end).
    const listed = await client.temporal.workflowService.listWorkflowExecutions({
      namespace: client.temporal.options.namespace,
      query: `WorkflowId = "${started.sessionId}"`,
    });
    const executions = (listed.executions ?? []).map((execution) => execution.execution!.runId!).reverse();
    expect(executions[0]).toBe(firstExecution);
    const waitsOf = async (runId: string) =>
      (await updatesOf(started.sessionId, runId)).answers.filter(
        (answer) => typeof answer === "object" && answer !== null && "ended" in answer,
      );
    for (const runId of [firstExecution, waitingForB])
      expect(await waitsOf(runId)).toEqual([{ ended: false }]);
    expect(await waitsOf(executions.at(-1)!)).not.toContainEqual({ ended: false });
    // Each execution, its wait included, replays from scratch as a worker taking the session over would.
    const workflowBundle = await loadWorkflowBundle();
    for (const runId of executions) {
      const history = await client.temporal.workflow.getHandle(started.sessionId, runId).fetchHistory();
      await Worker.runReplayHistory({ workflowBundle }, history, started.sessionId);
    }
  });
});
