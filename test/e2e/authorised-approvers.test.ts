import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { approveSignal } from "../../src/contract/messages.js";
import { runCliInProcess } from "../support/cli-in-process.js";
import { collect } from "../support/collect.js";
import {
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

const refundOrder = defineTool({
  name: "refund_order",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded order ${order}`,
});
const refundScript = () =>
  conversationScript([
    toolCallTurn([{ id: "r1", name: "refund_order", input: { order: 42 } }]),
    textTurn("handled"),
  ]);

/** Refunds need alice or a member of finance (a group the worker defines); the `open` agent names no approvers. */
const guarded = defineAgent({
  name: "guarded",
  model: "guarded",
  tools: [refundOrder],
  permission: {
    ask: ["refund_*"],
    approvers: [{ tools: "refund_*", actors: ["alice"], groups: ["finance"] }],
  },
});
/** The same rules, continuing as new after every run. */
const guardedShort = defineAgent({
  name: "guarded-short",
  model: "guarded",
  tools: [refundOrder],
  permission: guarded.permission!,
  durable: { continueAsNew: { maxRunsPerExecution: 1 } },
});
const open = defineAgent({
  name: "open",
  model: "open",
  tools: [refundOrder],
  permission: { ask: ["refund_*"] },
});

const isType =
  <T extends AgentEvent["type"]>(type: T) =>
  (event: AgentEvent): event is Extract<AgentEvent, { type: T }> =>
    event.type === type;

async function currentDetails(client: AgentClient, sessionId: string): Promise<string> {
  const metadata = await client
    .session(sessionId)
    .workflow.query<{ currentDetails?: string }>("__temporal_workflow_metadata");
  return metadata.currentDetails ?? "";
}

describe("authorised approvers (permission.approvers, enforced by the session)", () => {
  let worker: RunningWorker;
  let connection: Connection;
  const taskQueue = uniqueTaskQueue("approvers");
  /** A client that decides as `actor` (the application's signed-in user), or as nobody. */
  const clientAs = (actor?: string) =>
    new AgentClient(new Client({ connection, namespace: inject("temporalNamespace") }), {
      taskQueue,
      ...(actor ? { actor } : {}),
    });

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [guarded, guardedShort, open],
      providers: { guarded: refundScript(), open: refundScript() },
      approverGroups: { finance: ["bob"] },
    });
    connection = await Connection.connect({ address: temporalAddress() });
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
  });

  /** Starts a run that asks for one refund and waits until the approval is pending. */
  async function pendingRefund(client: AgentClient, agent: string) {
    const started = await client.start(agent, "refund it");
    const events = collect(
      client.session(started.sessionId).events(started.runId, { fromOffset: started.offset }),
    ).then((run) => run.events);
    await expect
      .poll(async () => (await client.session(started.sessionId).describe()).pendingApprovals.length, {
        timeout: 15_000,
      })
      .toBe(1);
    const [pending] = (await client.session(started.sessionId).describe()).pendingApprovals;
    return { started, events, callId: pending!.callId, pending: pending! };
  }

  it("an allowed actor (the client's actor option) approves: the events and the details record who, why and when", async () => {
    const alice = clientAs("alice");
    const { started, events, callId, pending } = await pendingRefund(alice, "guarded");
    expect(pending.approvers).toEqual({ actors: ["alice"], groups: { finance: ["bob"] } });
    const before = Date.now();
    await alice.session(started.sessionId).approve(callId, { reason: "customer verified" });
    const collected = await events;
    const resolved = collected.find(isType("approval_resolved"));
    expect(resolved).toMatchObject({
      id: callId,
      decision: "allow",
      by: "user",
      actor: "alice",
      reason: "customer verified",
    });
    expect(resolved?.at).toBeGreaterThanOrEqual(before - 5_000);
    expect(collected.find(isType("permission_decision"))).toMatchObject({ actor: "alice", at: resolved?.at });
    expect(collected.find(isType("tool_result"))?.result.content).toMatch(/^refunded order \d+$/);

    const status = await alice.session(started.sessionId).describe();
    expect(status.recentDecisions).toEqual([
      {
        callId,
        tool: "refund_order",
        decision: "allow",
        actor: "alice",
        reason: "customer verified",
        at: resolved?.at,
        via: "update",
        signed: false,
      },
    ]);
    const details = await currentDetails(alice, started.sessionId);
    expect(details).toContain(
      `allowed **refund_order** call \`${callId}\` by alice at ${new Date(resolved!.at!).toISOString()} (update, unsigned) — customer verified`,
    );
  });

  it("a member of an allowed group (defined on the worker) may decide too", async () => {
    const bob = clientAs("bob");
    const { started, events, callId } = await pendingRefund(bob, "guarded");
    await bob.session(started.sessionId).deny(callId, { reason: "duplicate" });
    const collected = await events;
    expect(collected.find(isType("approval_resolved"))).toMatchObject({
      decision: "deny",
      actor: "bob",
      reason: "duplicate",
    });
  });

  it("a disallowed actor is refused by the update with a clear error, and the call still waits", async () => {
    const alice = clientAs("alice");
    const { started, events, callId } = await pendingRefund(alice, "guarded");
    const mallory = clientAs("mallory");
    await expect(mallory.session(started.sessionId).approve(callId)).rejects.toThrow(
      `actor 'mallory' may not decide tool 'refund_order' (call '${callId}'); its approvers are: alice, group finance (bob)`,
    );
    const nobody = clientAs();
    await expect(nobody.session(started.sessionId).approve(callId)).rejects.toThrow(
      `a decision on tool 'refund_order' (call '${callId}') must name its actor`,
    );
    const status = await alice.session(started.sessionId).describe();
    expect(status.status).toBe("awaiting_approval");
    expect(status.pendingApprovals.map((p) => p.callId)).toEqual([callId]);
    expect(status.recentDecisions).toEqual([]);
    // Still decidable by an approver.
    await alice.session(started.sessionId).approve(callId);
    expect((await events).find(isType("approval_resolved"))).toMatchObject({
      decision: "allow",
      actor: "alice",
    });
  });

  it("the CLI's approve names the refused actor (--actor, then LITE_AGENT_ACTOR), and shows who may decide", async () => {
    const alice = clientAs("alice");
    const { started, events, callId } = await pendingRefund(alice, "guarded");
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_NAMESPACE: inject("temporalNamespace"),
      LITE_AGENT_TASK_QUEUE: taskQueue,
      LITE_AGENT_ACTOR: "mallory",
    };
    const refused = await runCliInProcess(["approve", started.sessionId, callId], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`actor 'mallory' may not decide tool 'refund_order' (call '${callId}')`);
    const show = await runCliInProcess(["show", started.sessionId], env);
    expect(show.stdout).toContain("may be decided by: alice, group finance (bob)");
    const allowed = await runCliInProcess(["approve", started.sessionId, callId, "--actor", "bob"], env);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain(`allowed ${callId} in session ${started.sessionId} (by bob)`);
    expect((await events).find(isType("approval_resolved"))).toMatchObject({ actor: "bob" });
  });

  it("a decision signal from a disallowed actor is listed and ignored; one from an approver decides", async () => {
    const alice = clientAs("alice");
    const { started, events, callId } = await pendingRefund(alice, "guarded");
    const handle = alice.session(started.sessionId).workflow;
    await handle.signal(approveSignal, { callId, actor: "mallory", reason: "trust me" });
    await expect
      .poll(async () => (await alice.session(started.sessionId).describe()).rejectedDecisions?.length)
      .toBe(1);
    const status = await alice.session(started.sessionId).describe();
    expect(status.status).toBe("awaiting_approval");
    expect(status.rejectedDecisions![0]).toMatchObject({
      callId,
      tool: "refund_order",
      decision: "allow",
      actor: "mallory",
      reason: "trust me",
      why: expect.stringContaining("actor 'mallory' may not decide tool 'refund_order'"),
    });
    expect(status.rejectedSignals.at(-1)).toContain("approve signal ignored: actor 'mallory' may not decide");
    const details = await currentDetails(alice, started.sessionId);
    expect(details).toContain("### Ignored decision signals (1)");
    expect(details).toContain(`ignored approve of **refund_order** call \`${callId}\` from mallory`);
    expect(details).toContain("may be decided by alice, group finance (bob)");

    await handle.signal(approveSignal, { callId, actor: "bob" });
    const collected = await events;
    expect(collected.find(isType("approval_resolved"))).toMatchObject({ decision: "allow", actor: "bob" });
    expect(collected.some((event) => event.type === "diagnostic" && event.code === "rejected_decision")).toBe(
      true,
    );
    expect((await alice.session(started.sessionId).describe()).recentDecisions).toMatchObject([
      { callId, actor: "bob", via: "signal" },
    ]);
  });

  it("without approvers anyone decides, with or without an actor (as before)", async () => {
    const nobody = clientAs();
    const first = await pendingRefund(nobody, "open");
    expect(first.pending.approvers).toBeUndefined();
    await nobody.session(first.started.sessionId).approve(first.callId);
    expect((await first.events).find(isType("approval_resolved"))).toMatchObject({
      decision: "allow",
      by: "user",
    });
    const second = await pendingRefund(nobody, "open");
    await clientAs("mallory").session(second.started.sessionId).approve(second.callId);
    expect((await second.events).find(isType("approval_resolved"))).toMatchObject({
      decision: "allow",
      actor: "mallory",
    });
  });

  it("the listed decisions and ignored signals survive continue-as-new", async () => {
    const alice = clientAs("alice");
    const { started, events, callId } = await pendingRefund(alice, "guarded-short");
    const first = await alice.session(started.sessionId).workflow.describe();
    await alice.session(started.sessionId).workflow.signal(approveSignal, { callId, actor: "mallory" });
    await alice.session(started.sessionId).approve(callId, { reason: "ok" });
    await events;
    await expect
      .poll(async () => (await alice.session(started.sessionId).workflow.describe()).runId, {
        timeout: 15_000,
      })
      .not.toBe(first.runId);
    const status = await alice.session(started.sessionId).describe();
    expect(status.recentDecisions).toMatchObject([{ callId, actor: "alice", reason: "ok", via: "update" }]);
    expect(status.rejectedDecisions).toMatchObject([{ callId, actor: "mallory" }]);
    expect(await currentDetails(alice, started.sessionId)).toContain(
      `allowed **refund_order** call \`${callId}\` by alice`,
    );
  });
});
