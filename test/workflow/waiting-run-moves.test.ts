import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient, type DurableEvent } from "../../src/client.js";
import { defineAgent, type AgentDefinition } from "../../src/define-agent.js";
import { askUserTool } from "../../src/kernel/builtin-tools/ask-user-tool.js";
import type { Message } from "../../src/kernel/vocabulary/messages.js";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider, type FakeTurn } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import type { SessionStatus } from "../../src/contract/session-status.js";
import { failedWorkflowTasks } from "../support/history-tasks.js";
import { startTestWorker, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import { executionsOf, setCurrent, wakeUntilOn, type Deployment } from "../support/worker-deployment.js";
import { collectDurable } from "../support/collect.js";

// A run waiting for a person moves to a new current build at once, carrying what it waits for (issue 36). Two
// builds of one worker, in this process, on the suite's dev server: sessions wait on build b1, b2 becomes current,
// a `wake` gives each a workflow task, and each continues as new onto b2 before anyone answers. Each build's tools
// say which build ran them.

const ran: string[] = [];

/** The agents as build `build` defines them. */
function agentsOf(build: string): AgentDefinition[] {
  const quick = defineTool({
    name: "quick",
    description: "runs at once",
    schema: z.object({ label: z.string() }),
    execute: ({ label }) => (ran.push(`quick ${label} ${build}`), `quick ${label} by ${build}`),
  });
  const publish = defineTool({
    name: "publish",
    description: "needs an approval",
    schema: z.object({ label: z.string() }),
    execute: ({ label }) => (ran.push(`publish ${label} ${build}`), `published ${label} by ${build}`),
  });
  const waiter = defineAgent({
    name: "waiter",
    model: "script",
    tools: [quick, publish, askUserTool()],
    permission: { ask: ["publish"], approvers: [{ tools: "publish", actors: ["alice"] }] },
  });
  // Its approvals time out after 40 s (and are then denied): long enough for the move to happen first.
  const timing = defineAgent({
    name: "timing",
    model: "script",
    tools: [publish],
    permission: { ask: ["publish"], approvalTimeoutMs: 40_000 },
  });
  return [waiter, timing];
}

/** Each run's script, by its input: the n-th answer after that input is the n-th entry. */
const SCRIPTS: Record<string, FakeTurn[]> = {
  mixed: [
    toolCallTurn([
      { id: "q1", name: "quick", input: { label: "q1" } },
      { id: "p1", name: "publish", input: { label: "p1" } },
      { id: "u1", name: "ask_user", input: { question: "which colour?" } },
    ]),
    toolCallTurn([{ id: "q2", name: "quick", input: { label: "q2" } }]),
    textTurn("mixed done"),
  ],
  deny: [toolCallTurn([{ id: "p2", name: "publish", input: { label: "p2" } }]), textTurn("deny done")],
  cancel: [toolCallTurn([{ id: "p3", name: "publish", input: { label: "p3" } }]), textTurn("cancel done")],
  timeout: [toolCallTurn([{ id: "p4", name: "publish", input: { label: "p4" } }]), textTurn("timeout done")],
};

/** Stateless (either build gives the same answer): the script of the run's input, at its next answer. */
function nextTurn(request: ModelRequest): FakeTurn {
  const start = request.messages.findLastIndex(
    (message: Message) =>
      message.role === "user" && typeof message.content === "string" && message.content in SCRIPTS,
  );
  const script = SCRIPTS[request.messages[start]?.content as string]!;
  const answered = request.messages.slice(start).filter((message) => message.role === "assistant").length;
  return script[answered]!;
}

const providers = () => ({ script: fakeProvider([nextTurn], { onExhausted: "repeat-last" }) });
const taskQueue = uniqueTaskQueue("waiting-moves");
const workers: RunningWorker[] = [];
let connection: Connection;
let temporal: Client;
let agents: AgentClient;
let deployment: Deployment;

async function startBuild(build: string): Promise<void> {
  workers.push(
    await startTestWorker({
      taskQueue,
      agents: agentsOf(build),
      providers: providers(),
      deployment: { deploymentName: deployment.deploymentName, buildId: build },
    }),
  );
}

/** Polls the session's status until `ready` holds. */
async function statusWhen(
  sessionId: string,
  ready: (status: SessionStatus) => boolean,
): Promise<SessionStatus> {
  for (;;) {
    const status = await agents.session(sessionId).describe();
    if (ready(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a status says the session waits for. */
const waits = (status: SessionStatus) => ({
  pendingApprovals: status.pendingApprovals,
  pendingQuestions: status.pendingQuestions,
});

/** Each durable event once, none missing: the offsets a follower read are consecutive. */
function expectEveryOffsetOnce(events: DurableEvent[]): void {
  const offsets = events.filter((event) => event.deltaId === undefined).map((event) => event.offset);
  const first = offsets[0]!;
  expect(offsets).toEqual(offsets.map((_, index) => first + index));
}

/** How many of the events are of `type` for call `id`. */
function countOf(events: DurableEvent[], type: DurableEvent["type"], id: string): number {
  return events.filter((event) => {
    if (event.type !== type) return false;
    if ("call" in event) return event.call.id === id;
    if (event.type === "tool_result") return event.result.id === id;
    return "id" in event && event.id === id;
  }).length;
}

const toolResults = (events: DurableEvent[]) =>
  events.flatMap((event) =>
    event.type === "tool_result" ? [`${event.result.id}: ${event.result.content}`] : [],
  );

beforeAll(async () => {
  connection = await Connection.connect({ address: inject("temporalAddress") });
  const namespace = inject("temporalNamespace");
  temporal = new Client({ connection, namespace });
  agents = new AgentClient(temporal, { taskQueue });
  deployment = { connection, namespace, deploymentName: `lite-agent-${taskQueue}` };
  await startBuild("b1");
  await setCurrent(deployment, "b1");
  // Deployed, not current: sessions start on b1 still.
  await startBuild("b2");
}, 300_000);

afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await connection?.close();
});

describe("a run waiting for a person, when another build becomes current", () => {
  it("moves at once with its waits, and the answers given after the move are acted on once, on the new build", async () => {
    // On b1: a turn with a finished call, an approval and a question; an approval to deny; one whose run is
    // cancelled; one that times out.
    const timing = await agents.start("timing", "timeout");
    const mixed = await agents.start("waiter", "mixed");
    const denied = await agents.start("waiter", "deny");
    const cancelled = await agents.start("waiter", "cancel");
    const followers = [timing, mixed, denied, cancelled].map((run) =>
      collectDurable(agents.session(run.sessionId).events(run.runId, { fromOffset: run.offset })),
    );
    const [timingRun, mixedRun, deniedRun, cancelledRun] = followers;
    const before = new Map<string, SessionStatus>();
    before.set(
      mixed.sessionId,
      await statusWhen(
        mixed.sessionId,
        (s) => s.pendingApprovals.length === 1 && s.pendingQuestions.length === 1,
      ),
    );
    for (const run of [timing, denied, cancelled])
      before.set(run.sessionId, await statusWhen(run.sessionId, (s) => s.pendingApprovals.length === 1));
    expect(ran).toEqual(["quick q1 b1"]);

    // b2 current; each session woken moves to b2 while it still waits.
    await setCurrent(deployment, "b2");
    for (const run of [timing, mixed, denied, cancelled]) {
      await wakeUntilOn(temporal, run.sessionId, "b2");
      const chain = await executionsOf(temporal, run.sessionId);
      expect(chain.map((execution) => execution.build)).toEqual(["b1", "b2"]);
      // The same waits, with the same call ids, approvers and deadlines (the timeout is not restarted).
      const after = await agents.session(run.sessionId).describe();
      expect(waits(after)).toEqual(waits(before.get(run.sessionId)!));
      expect(after.status).toBe(before.get(run.sessionId)!.status);
      expect(after.currentRun?.runId).toBe(run.runId);
    }
    expect(before.get(mixed.sessionId)!.pendingApprovals[0]).toMatchObject({
      callId: "p1",
      tool: "publish",
      approvers: expect.anything(),
    });
    expect(before.get(mixed.sessionId)!.pendingQuestions[0]).toMatchObject({ callId: "u1" });
    expect(ran).toEqual(["quick q1 b1"]);

    // The approvers came along: only alice may decide.
    await expect(agents.session(mixed.sessionId).approve("p1", { actor: "bob" })).rejects.toThrow(
      /may not decide/,
    );
    await agents.session(mixed.sessionId).answer("u1", "blue", { actor: "carol" });
    await agents.session(mixed.sessionId).approve("p1", { actor: "alice" });
    const mixedFollowed = await mixedRun!;
    expect(mixedFollowed.result.text).toBe("mixed done");
    // The finished call kept its result and ran once, on b1; the approved one ran once, on b2; then the next turn.
    expect(toolResults(mixedFollowed.events)).toEqual([
      "q1: quick q1 by b1",
      "u1: blue",
      "p1: published p1 by b2",
      "q2: quick q2 by b2",
    ]);
    expectEveryOffsetOnce(mixedFollowed.events);
    for (const id of ["q1", "p1", "u1"]) {
      expect(countOf(mixedFollowed.events, "tool_use", id), id).toBe(1);
      expect(countOf(mixedFollowed.events, "tool_call_start", id), id).toBe(1);
      expect(countOf(mixedFollowed.events, "tool_result", id), id).toBe(1);
    }
    expect(countOf(mixedFollowed.events, "approval_request", "p1")).toBe(1);
    expect(countOf(mixedFollowed.events, "approval_resolved", "p1")).toBe(1);
    expect(countOf(mixedFollowed.events, "input_request", "u1")).toBe(1);
    expect(countOf(mixedFollowed.events, "input_resolved", "u1")).toBe(1);
    expect(mixedFollowed.events.filter((event) => event.type === "turn_start").map((e) => e.turn)).toEqual([
      1, 2, 3,
    ]);

    // Denied after the move: the tool never runs, the model reads the denial.
    await agents.session(denied.sessionId).deny("p2", { actor: "alice", reason: "not today" });
    const deniedFollowed = await deniedRun!;
    expect(toolResults(deniedFollowed.events)).toEqual(["p2: Error: denied by user: not today"]);
    expect(deniedFollowed.result.text).toBe("deny done");
    expectEveryOffsetOnce(deniedFollowed.events);

    // Cancelled after the move: the approval is settled as cancelled, and a late decision is refused.
    await agents.session(cancelled.sessionId).cancel({ runId: cancelled.runId });
    const cancelledFollowed = await cancelledRun!;
    expect(cancelledFollowed.result.stopReason).toBe("aborted");
    expect(cancelledFollowed.events).toContainEqual(
      expect.objectContaining({ type: "approval_resolved", id: "p3", decision: "deny" }),
    );
    expect(countOf(cancelledFollowed.events, "approval_request", "p3")).toBe(1);
    expectEveryOffsetOnce(cancelledFollowed.events);
    expect(waits(await agents.session(cancelled.sessionId).describe())).toEqual({
      pendingApprovals: [],
      pendingQuestions: [],
    });
    await expect(agents.session(cancelled.sessionId).approve("p3", { actor: "alice" })).rejects.toThrow(
      /already settled \(cancelled\)/,
    );

    // Timed out after the move, at its original deadline: b2's timer runs for what was left of the 40 s.
    const timingFollowed = await timingRun!;
    expect(toolResults(timingFollowed.events)).toEqual([
      expect.stringMatching(
        /^p4: Error: approval failed: approval timed out: no decision on publish within 40 s/,
      ),
    ]);
    expect(timingFollowed.events).toContainEqual(
      expect.objectContaining({ type: "approval_resolved", id: "p4", decision: "deny", actor: "timeout" }),
    );
    expectEveryOffsetOnce(timingFollowed.events);
    const timingChain = await executionsOf(temporal, timing.sessionId);
    const moved = await temporal.workflow.getHandle(timing.sessionId, timingChain[1]!.runId).fetchHistory();
    const timers = (moved.events ?? []).flatMap((event) =>
      event.timerStartedEventAttributes ? [event.timerStartedEventAttributes.startToFireTimeout!] : [],
    );
    expect(timers).toHaveLength(1);
    expect(Number(timers[0]!.seconds ?? 0)).toBeLessThan(40);

    // Nothing ran twice; no workflow task failed in any execution.
    expect(ran).toEqual(["quick q1 b1", "publish p1 b2", "quick q2 b2"]);
    for (const run of [timing, mixed, denied, cancelled]) {
      for (const { runId } of await executionsOf(temporal, run.sessionId)) {
        const history = await temporal.workflow.getHandle(run.sessionId, runId).fetchHistory();
        expect(failedWorkflowTasks(history), `${run.sessionId} ${runId}`).toEqual([]);
      }
    }
  }, 180_000);
});
