import { WorkflowNotFoundError } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { BackgroundLimits } from "../../src/kernel/background/types.js";
import type { AgentEvent, RunResult } from "../../src/kernel/vocabulary/events.js";
import type { FakeProvider } from "../../src/providers/fake-provider.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { delegateTool } from "../../src/subagents/delegate-tool.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { BACKGROUND_STOP_WAIT_MS } from "../../src/workflows/children/background-stop.js";
import { readStreamQuery } from "../../src/contract/stream/stream-messages.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import { taskForkId } from "../../src/kernel/builtin-tools/delegate-tool.js";

// Durable background groups (a delegation with `run_in_background`) under the agent's `backgroundLimits`, and what
// happens to them when their run is cancelled: each limit holds on Temporal as in-process, and the model is told.

const lookup = defineTool({
  name: "lookup",
  description: "looks a fact up",
  schema: z.object({ topic: z.string() }),
  execute: ({ topic }) => `facts about ${topic}`,
});

/** The subagent of every group: it needs a person's approval for its lookup, so its group runs until the test says. */
const researcher = defineAgent({
  name: "bg-researcher",
  model: "bg-researcher",
  tools: [lookup],
  permission: { ask: ["lookup"] },
});
const researcherScript = conversationScript([
  toolCallTurn([{ id: "r1", name: "lookup", input: { topic: "tides" } }]),
  textTurn("Tides follow the moon."),
]);

/** A model call that starts a group of one researcher task in the background with tool `tool`. */
const groupCall = (id: string, tool = "Agent") =>
  toolCallTurn([
    {
      id,
      name: tool,
      input: {
        tasks: [{ display_name: "tides", subagent_type: "bg-researcher", prompt: "why are there tides?" }],
        run_in_background: true,
      },
    },
  ]);

/** An agent with a joinable (`Agent`) and a detached (`Detach`) delegation tool, the given limits and script. */
function lead(name: string, backgroundLimits: BackgroundLimits | undefined, script: FakeProvider) {
  const agent = defineAgent({
    name,
    model: name,
    tools: [
      delegateTool({ agents: [researcher], backgroundKind: "joinable" }),
      delegateTool({ agents: [researcher], backgroundKind: "detached", name: "Detach" }),
    ],
    ...(backgroundLimits ? { backgroundLimits } : {}),
  });
  return { agent, script };
}

const leads = {
  /** Two joinable groups in one run: the second is refused; the run joins the first. */
  joinable: lead(
    "bg-max-joinable",
    { maxJoinable: 1 },
    conversationScript([
      groupCall("j1"),
      groupCall("j2"),
      textTurn("Waiting."),
      textTurn("Report: the moon."),
    ]),
  ),
  /** A detached group per run: the second run's is refused while the first's still runs. */
  detached: lead(
    "bg-max-detached",
    { maxDetached: 1 },
    conversationScript([
      groupCall("d1", "Detach"),
      textTurn("Later."),
      groupCall("d2", "Detach"),
      textTurn("Still on it."),
      textTurn("Report: the moon."),
    ]),
  ),
  /** maxTotal counts the run's joinable groups and the session's detached ones together. */
  total: lead(
    "bg-max-total",
    { maxTotal: 1 },
    conversationScript([
      groupCall("d1", "Detach"),
      textTurn("Later."),
      groupCall("j1"),
      textTurn("Still on it."),
    ]),
  ),
  /** A joinable group that outlives maxTaskMs: it fails, its child is cancelled, the run goes on. */
  timedJoinable: lead(
    "bg-timed-joinable",
    { maxTaskMs: 1_500 },
    conversationScript([groupCall("j1"), textTurn("Waiting."), textTurn("It timed out.")]),
  ),
  /** A detached group that outlives maxTaskMs after its run ended: the next run is told. */
  timedDetached: lead(
    "bg-timed-detached",
    { maxTaskMs: 1_500 },
    conversationScript([groupCall("d1", "Detach"), textTurn("Later."), textTurn("It timed out.")]),
  ),
  /** A joinable group whose run is cancelled while it joins. */
  cancelled: lead("bg-cancelled", undefined, conversationScript([groupCall("j1"), textTurn("Waiting.")])),
};

/** The session of task `index` (from 1) of the delegation call `callId`. */
const taskSession = (sessionId: string, callId: string, index = 1) =>
  `${sessionId}/${taskForkId(callId, index - 1)}`;

/** The parent's own tool results (not a subagent's), by call id. */
function toolResults(events: readonly AgentEvent[]): Map<string, { content: string; isError?: boolean }> {
  const results = new Map<string, { content: string; isError?: boolean }>();
  for (const event of events)
    if (event.type === "tool_result" && !event.forkId) results.set(event.result.id, event.result);
  return results;
}

/**
 * Drains a run, calling `act` once, as soon as `ready` holds for the events so far (checked after each event), so
 * the test acts at a point of the run, not after a delay.
 */
async function drainActing(
  run: AsyncGenerator<DurableEvent, RunResult>,
  ready: (events: readonly DurableEvent[]) => boolean,
  act: () => Promise<unknown>,
): Promise<{ events: DurableEvent[]; result: RunResult; acted: boolean }> {
  const events: DurableEvent[] = [];
  let acted = false;
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, result: next.value, acted };
    events.push(next.value);
    if (!acted && ready(events)) {
      acted = true;
      await act();
    }
  }
}

/**
 * Whether the run joins its group of call `j1` at turn `turn` (the turn ended without tool calls) while the group's
 * child waits for a person's approval.
 */
const joining = (events: readonly DurableEvent[], turn: number) =>
  events.some((event) => event.type === "approval_request" && event.forkId === taskForkId("j1", 0)) &&
  events.some((event) => event.type === "turn_end" && event.turn === turn && !event.forkId);

/** The texts and tool results of the model's newest request that hold `fragment`: what the model was told. */
function lastRequestHolding(model: FakeProvider, fragment: string): string[] {
  const messages = model.requests.at(-1)?.messages ?? [];
  const texts = messages.flatMap((message) =>
    typeof message.content === "string"
      ? [message.content]
      : message.content.flatMap((block) =>
          block.type === "text" ? [block.text] : block.type === "tool_result" ? [block.content] : [],
        ),
  );
  return texts.filter((text) => text.includes(fragment));
}

describe("durable background groups under backgroundLimits", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("bg-groups");

  beforeAll(async () => {
    const all = Object.values(leads);
    worker = await startTestWorker({
      taskQueue,
      agents: [researcher, ...all.map((entry) => entry.agent)],
      providers: {
        "bg-researcher": researcherScript,
        ...Object.fromEntries(all.map((entry) => [entry.agent.name, entry.script])),
      },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  /** Approves the researcher's lookup in `child` once it asks (through the parent session). */
  async function approveChild(sessionId: string, child: string): Promise<void> {
    await expect
      .poll(async () => (await client.session(sessionId).describe()).pendingApprovals, { timeout: 20_000 })
      .toMatchObject([{ callId: "r1", sessionId: child }]);
    await client.session(sessionId).approve("r1", { actor: "alice" });
  }

  /** Whether a workflow with this id was ever started. */
  async function exists(workflowId: string): Promise<boolean> {
    try {
      await client.session(workflowId).workflow.describe();
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }

  it("maxJoinable: a second joinable group in the run is refused with the limit named; the first is joined", async () => {
    const sessionId = `bg-max-joinable-${Date.now()}`;
    // The first group's child is approved only once the run joins it (turn 3 said "Waiting."): it is still running
    // when the second call is answered.
    const { events, result, acted } = await drainActing(
      client.run("bg-max-joinable", "research tides twice", { sessionId }),
      (seen) => joining(seen, 3),
      () => client.session(sessionId).approve("r1", { actor: "alice" }),
    );
    expect(acted).toBe(true);

    const results = toolResults(events);
    expect(results.get("j1")?.content).toMatch(/^\[background:bg_\w+\] accepted group with 1 subagent/);
    const refusal = "Error: Background task limit reached: 1 joinable tasks are running (maxJoinable 1).";
    expect(results.get("j2")).toMatchObject({ content: refusal, isError: true });
    expect(await exists(taskSession(sessionId, "j2"))).toBe(false);
    // The model read the refusal, then the first group's report at the turn after the join.
    const note = events.find((event) => event.type === "background_completed");
    expect(note).toMatchObject({
      completion: { status: "completed", content: expect.stringContaining("moon") },
    });
    expect(lastRequestHolding(leads.joinable.script, refusal)).toHaveLength(1);
    expect(lastRequestHolding(leads.joinable.script, "<background-task-completed")).toHaveLength(1);
    expect(result.text).toBe("Report: the moon.");
  });

  it("maxDetached: while a detached group of an ended run still runs, the next run's group is refused", async () => {
    const sessionId = `bg-max-detached-${Date.now()}`;
    const first = await collect(client.run("bg-max-detached", "research tides later", { sessionId }));
    expect(first.result.text).toBe("Later.");
    const second = await collect(client.run("bg-max-detached", "and again", { sessionId }));
    const refusal = "Error: Background task limit reached: 1 detached tasks are running (maxDetached 1).";
    expect(toolResults(second.events).get("d2")).toMatchObject({ content: refusal, isError: true });
    expect(await exists(taskSession(sessionId, "d2"))).toBe(false);
    expect(lastRequestHolding(leads.detached.script, refusal)).toHaveLength(1);
    // The first group goes on and reports to the run after it.
    expect((await client.session(sessionId).describe()).backgroundTasks).toMatchObject([{ done: false }]);
    await approveChild(sessionId, taskSession(sessionId, "d1"));
    await expect
      .poll(async () => (await client.session(sessionId).describe()).backgroundTasks?.[0]?.done, {
        timeout: 20_000,
      })
      .toBe(true);
    const third = await collect(client.run("bg-max-detached", "anything new?", { sessionId }));
    expect(third.events.find((event) => event.type === "background_completed")).toMatchObject({
      completion: { status: "completed" },
    });
    expect(third.result.text).toBe("Report: the moon.");
  });

  it("maxTotal counts the session's detached groups and the run's joinable ones together", async () => {
    const sessionId = `bg-max-total-${Date.now()}`;
    await collect(client.run("bg-max-total", "research tides later", { sessionId }));
    const second = await collect(client.run("bg-max-total", "and now, joined", { sessionId }));
    const refusal = "Error: Background task limit reached: 1 tasks are running (maxTotal 1).";
    expect(toolResults(second.events).get("j1")).toMatchObject({ content: refusal, isError: true });
    expect(await exists(taskSession(sessionId, "j1"))).toBe(false);
    expect(second.result.text).toBe("Still on it.");
    await approveChild(sessionId, taskSession(sessionId, "d1"));
  });

  it("maxTaskMs: a joinable group that takes too long fails, its child is cancelled, and the model is told", async () => {
    const sessionId = `bg-timed-joinable-${Date.now()}`;
    const { events, result } = await collect(
      client.run("bg-timed-joinable", "research tides", { sessionId }),
    );
    const note = events.find((event) => event.type === "background_completed");
    expect(note).toMatchObject({
      completion: { status: "failed", content: "Error: background task timed out after 1500ms" },
    });
    expect(lastRequestHolding(leads.timedJoinable.script, 'status="error"')).toEqual([
      expect.stringContaining("Error: background task timed out after 1500ms"),
    ]);
    expect(result.text).toBe("It timed out.");
    const child = taskSession(sessionId, "j1");
    await expect
      .poll(async () => (await client.session(child).workflow.describe()).status.name)
      .toBe("CANCELLED");
    await expect.poll(async () => (await client.session(sessionId).describe()).subagents).toBeUndefined();
    expect((await client.session(sessionId).describe()).pendingApprovals).toEqual([]);
  });

  it("maxTaskMs: a detached group that times out after its run ended is cancelled; the next run is told", async () => {
    const sessionId = `bg-timed-detached-${Date.now()}`;
    const first = await collect(client.run("bg-timed-detached", "research tides later", { sessionId }));
    expect(first.result.text).toBe("Later.");
    await expect
      .poll(async () => (await client.session(sessionId).describe()).backgroundTasks?.[0]?.done, {
        timeout: 20_000,
      })
      .toBe(true);
    const child = taskSession(sessionId, "d1");
    await expect
      .poll(async () => (await client.session(child).workflow.describe()).status.name)
      .toBe("CANCELLED");
    expect((await client.session(sessionId).describe()).pendingApprovals).toEqual([]);
    const second = await collect(client.run("bg-timed-detached", "anything new?", { sessionId }));
    expect(second.events.find((event) => event.type === "background_completed")).toMatchObject({
      completion: { status: "failed", content: "Error: background task timed out after 1500ms" },
    });
    expect(lastRequestHolding(leads.timedDetached.script, 'status="error"')).toHaveLength(1);
    expect(second.result.text).toBe("It timed out.");
  });
});

describe("cancelling a run while it joins a background group", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("bg-cancel");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [researcher, leads.cancelled.agent],
      providers: { "bg-researcher": researcherScript, "bg-cancelled": leads.cancelled.script },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("cancels the group's child session and leaves no approval behind", async () => {
    const sessionId = `bg-cancelled-${Date.now()}`;
    const child = taskSession(sessionId, "j1");
    // Cancelled while the run joins its group (turn 2 said "Waiting.") and the group's child waits for a person.
    const { events, acted } = await drainActing(
      client.run("bg-cancelled", "research tides", { sessionId }),
      (seen) => joining(seen, 2),
      async () => {
        expect((await client.session(sessionId).describe()).pendingApprovals).toMatchObject([
          { callId: "r1" },
        ]);
        await client.session(sessionId).cancel();
      },
    );
    expect(acted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "aborted" });
    expect((await client.session(child).workflow.describe()).status.name).toBe("CANCELLED");
    const status = await client.session(sessionId).describe();
    expect(status.pendingApprovals).toEqual([]);
    expect(status.subagents).toBeUndefined();
    expect(status.status).toBe("idle");
  });
});

describe("cancelling a run whose background child cannot answer", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("bg-orphan");
  const orphaned = lead(
    "bg-orphaned",
    undefined,
    conversationScript([groupCall("j1"), textTurn("Waiting."), textTurn("Nothing new.")]),
  );

  beforeAll(async () => {
    // No worker serves the researcher: its child session starts but never runs, so it never confirms a cancel.
    worker = await startTestWorker({
      taskQueue,
      agents: [orphaned.agent],
      providers: { "bg-orphaned": orphaned.script },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("ends the run once the wait for its children is over, and the session takes new runs", async () => {
    const started = await client.start("bg-orphaned", "research tides");
    const { sessionId } = started;
    const child = taskSession(sessionId, "j1");
    // The parent's own stream, read directly (a follower also reads the child's, which nobody runs).
    const ownEvents = async () =>
      (await client.session(sessionId).workflow.query(readStreamQuery, { from: 0 })).items.map(
        (item) => item.entry.event,
      );
    await expect
      .poll(async () => (await ownEvents()).some((event) => event.type === "turn_end" && event.turn === 2), {
        timeout: 20_000,
      })
      .toBe(true);
    // A client following the run reads the child's stream too; one that cannot be read must not hold the run's end.
    const followed = collect(client.session(sessionId).events(started.runId, { fromOffset: started.offset }));
    await client.session(sessionId).cancel();
    await expect
      .poll(async () => (await client.session(sessionId).describe()).status, { timeout: 25_000 })
      .toBe("idle");
    expect((await ownEvents()).at(-1)).toMatchObject({ type: "done", reason: "aborted" });
    const { events: seen } = await followed;
    expect(seen.at(-1)).toMatchObject({ type: "done", reason: "aborted" });
    expect((await client.session(child).workflow.describe()).status.name).toBe("RUNNING");
    // Its parent still lists it (it has not stopped), and a describe does not wait on it for long.
    expect(
      (await client.session(sessionId).describe()).subagents?.map((subagent) => subagent.sessionId),
    ).toEqual([child]);
    const history = await client.session(sessionId).workflow.fetchHistory();
    const timers = (history.events ?? []).filter((event) => event.timerStartedEventAttributes);
    expect(
      timers.map((event) => event.timerStartedEventAttributes?.startToFireTimeout?.seconds?.toString()),
    ).toEqual([String(BACKGROUND_STOP_WAIT_MS / 1000)]);
    const next = await client.send("bg-orphaned", "anything new?", { sessionId });
    expect(next).toMatchObject({ stopReason: "stop", text: "Nothing new." });
    await client.session(child).workflow.terminate("test over");
  }, 60_000);
});
