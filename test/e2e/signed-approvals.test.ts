import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, Connection } from "@temporalio/client";
import { Worker } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { approveSignal } from "../../src/contract/messages.js";
import { generateApproverKey, signDecision, signerFromKeyText } from "../../src/client/decision-signer.js";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
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

const aliceKey = generateApproverKey("alice-1", "alice");
const aliceSigner = signerFromKeyText(JSON.stringify(aliceKey));
const approverKeys = [{ id: "alice-1", actor: "alice", publicKey: aliceKey.publicKey }];
/** Refunds need alice, with a signed decision. */
const signed = defineAgent({
  name: "signed",
  model: "signed",
  tools: [refundOrder],
  permission: {
    ask: ["refund_*"],
    approvers: [{ tools: "refund_*", actors: ["alice"], requireSignature: true }],
    approverKeys,
  },
});
/** Refunds need alice; a signature is checked when given, not required. */
const keyed = defineAgent({
  name: "keyed",
  model: "keyed",
  tools: [refundOrder],
  permission: { ask: ["refund_*"], approvers: [{ tools: "refund_*", actors: ["alice"] }], approverKeys },
});

const isType =
  <T extends AgentEvent["type"]>(type: T) =>
  (event: AgentEvent): event is Extract<AgentEvent, { type: T }> =>
    event.type === type;

describe("signed approvals (permission.approverKeys, requireSignature)", () => {
  let worker: RunningWorker;
  let connection: Connection;
  const taskQueue = uniqueTaskQueue("signed");
  const clientWith = (options: ConstructorParameters<typeof AgentClient>[1] = {}) =>
    new AgentClient(new Client({ connection, namespace: inject("temporalNamespace") }), {
      taskQueue,
      ...options,
    });

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [signed, keyed],
      providers: { signed: refundScript(), keyed: refundScript() },
    });
    connection = await Connection.connect({ address: temporalAddress() });
  });
  afterAll(async () => {
    await worker?.stop();
    await connection?.close();
  });

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

  it("a forged signal in alice's name is refused when signatures are required; a signed approval is taken and replays", async () => {
    const client = clientWith({ signer: aliceSigner });
    const { started, events, callId, pending } = await pendingRefund(client, "signed");
    expect(pending.signing).toEqual({ keys: approverKeys, required: true });
    const session = client.session(started.sessionId);
    await session.workflow.signal(approveSignal, { callId, actor: "alice", reason: "forged" });
    await expect.poll(async () => (await session.describe()).rejectedDecisions?.length).toBe(1);
    const status = await session.describe();
    expect(status.status).toBe("awaiting_approval");
    expect(status.rejectedDecisions![0]).toMatchObject({
      callId,
      actor: "alice",
      reason: "forged",
      why: expect.stringContaining("an unsigned decision is refused"),
    });
    // An unsigned update from a client without a signer is refused by the validator too.
    await expect(clientWith({ actor: "alice" }).session(started.sessionId).approve(callId)).rejects.toThrow(
      "an unsigned decision is refused",
    );

    await session.approve(callId, { reason: "verified" });
    const collected = await events;
    expect(collected.find(isType("approval_resolved"))).toMatchObject({
      decision: "allow",
      actor: "alice",
      keyId: "alice-1",
    });
    expect(collected.find(isType("tool_result"))?.result.content).toBe("refunded order 42");
    expect((await session.describe()).recentDecisions).toMatchObject([
      { callId, actor: "alice", reason: "verified", via: "update", signed: true, keyId: "alice-1" },
    ]);
    const history = await session.workflow.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: await loadWorkflowBundle() }, history, started.sessionId);
    // The same replays under another workflow id: the signed session id comes from the session's input.
    await Worker.runReplayHistory({ workflowBundle: await loadWorkflowBundle() }, history, "replay");
  });

  it("when not required, an unsigned decision is taken and listed as unsigned; a bad signature is still refused", async () => {
    const client = clientWith({ actor: "alice" });
    const { started, events, callId } = await pendingRefund(client, "keyed");
    const session = client.session(started.sessionId);
    const copied = await signDecision(aliceSigner, {
      sessionId: started.sessionId,
      callId: "another-call",
      decision: "allow",
      actor: "alice",
    });
    await session.workflow.signal(approveSignal, { callId, actor: "alice", signature: copied });
    await expect.poll(async () => (await session.describe()).rejectedDecisions?.length).toBe(1);
    expect((await session.describe()).rejectedDecisions![0]).toMatchObject({
      keyId: "alice-1",
      why: expect.stringContaining("the signature does not verify with key 'alice-1'"),
    });
    await session.workflow.signal(approveSignal, { callId, actor: "alice" });
    expect((await events).find(isType("approval_resolved"))).toMatchObject({ actor: "alice" });
    const status = await session.describe();
    expect(status.recentDecisions).toMatchObject([{ callId, via: "signal", signed: false }]);
    expect(status.recentDecisions![0]!.keyId).toBeUndefined();
    const metadata = await session.workflow.query<{ currentDetails?: string }>(
      "__temporal_workflow_metadata",
    );
    expect(metadata.currentDetails).toContain("(signal, unsigned)");
  });

  it("a signature copied from another session's call, or brought again, is refused", async () => {
    const client = clientWith({ signer: aliceSigner });
    const first = await pendingRefund(client, "signed");
    const second = await pendingRefund(client, "signed");
    const forFirst = await signDecision(aliceSigner, {
      sessionId: first.started.sessionId,
      callId: first.callId,
      decision: "allow",
      actor: "alice",
    });
    const handle = client.session(second.started.sessionId);
    await handle.workflow.signal(approveSignal, {
      callId: second.callId,
      actor: "alice",
      signature: forFirst,
    });
    await expect.poll(async () => (await handle.describe()).rejectedDecisions?.length).toBe(1);
    expect((await handle.describe()).rejectedDecisions![0]!.why).toContain("does not verify");
    expect((await handle.describe()).status).toBe("awaiting_approval");
    // Used where it was made, then brought again: the call is settled, the signal refused.
    const firstHandle = client.session(first.started.sessionId);
    await firstHandle.workflow.signal(approveSignal, {
      callId: first.callId,
      actor: "alice",
      signature: forFirst,
    });
    expect((await first.events).find(isType("approval_resolved"))).toMatchObject({ keyId: "alice-1" });
    await firstHandle.workflow.signal(approveSignal, {
      callId: first.callId,
      actor: "alice",
      signature: forFirst,
    });
    await expect.poll(async () => (await firstHandle.describe()).rejectedDecisions?.length).toBe(1);
    await handle.deny(second.callId, { reason: "no" });
    expect((await second.events).find(isType("approval_resolved"))).toMatchObject({
      decision: "deny",
      keyId: "alice-1",
    });
  });

  it("the CLI signs with --key-file (approve, and run --yes) and refuses without it; show lists the key", async () => {
    const client = clientWith({ signer: aliceSigner });
    const { started, events, callId } = await pendingRefund(client, "signed");
    const dir = mkdtempSync(join(tmpdir(), "signed-approvals-"));
    const keyFile = join(dir, "alice.key.json");
    writeFileSync(keyFile, JSON.stringify(aliceKey), { mode: 0o600 });
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_NAMESPACE: inject("temporalNamespace"),
      LITE_AGENT_TASK_QUEUE: taskQueue,
      LITE_AGENT_ACTOR: "alice",
    };
    const unsigned = await runCliInProcess(["approve", started.sessionId, callId], env);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toContain("an unsigned decision is refused");
    const show = await runCliInProcess(["show", started.sessionId], env);
    expect(show.stdout).toContain("signed decisions only");
    const approved = await runCliInProcess(
      ["approve", started.sessionId, callId, "--key-file", keyFile],
      env,
    );
    expect(approved.stderr).toBe("");
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(
      `allowed ${callId} in session ${started.sessionId} (by alice, signed with key alice-1)`,
    );
    expect((await events).find(isType("approval_resolved"))).toMatchObject({ keyId: "alice-1" });
    const after = await runCliInProcess(["show", started.sessionId], env);
    expect(after.stdout).toContain("(update, signed with key alice-1)");
    // `run --yes` decides as it follows, signed with the same key.
    const run = await runCliInProcess(
      ["--task-queue", taskQueue, "run", "signed", "refund", "it", "--yes", "--key-file", keyFile],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).toContain("allowed by alice (signed, key alice-1)");
  });
});
