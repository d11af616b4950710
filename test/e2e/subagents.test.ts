import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../src/agent.js";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { delegateTool } from "../../src/subagents/delegate-tool.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { collect } from "../support/collect.js";
import {
  QUERY_POLL_TIMEOUT_MS,
  startTestWorker,
  testClient,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";
import { taskForkId } from "../../src/kernel/builtin-tools/delegate-tool.js";

/** The fork id of the first task of call `d1` (ids carry a digest of the call id). */
const D1_FORK = taskForkId("d1", 0);

const lookup = defineTool({
  name: "lookup",
  description: "looks a fact up",
  schema: z.object({ topic: z.string() }),
  execute: ({ topic }) => `facts about ${topic}`,
});

const USAGE = { inputTokens: 10, outputTokens: 5 };
const researcherScript = () =>
  conversationScript([
    { ...toolCallTurn([{ id: "r1", name: "lookup", input: { topic: "tides" } }]), usage: USAGE },
    { ...textTurn("Tides follow the moon."), usage: USAGE },
  ]);
const leadScript = () =>
  conversationScript([
    {
      ...toolCallTurn([
        {
          id: "d1",
          name: "Agent",
          input: {
            tasks: [{ display_name: "tides", subagent_type: "researcher", prompt: "why are there tides?" }],
          },
        },
      ]),
      usage: USAGE,
    },
    { ...textTurn("The moon, says my researcher."), usage: USAGE },
  ]);

/** The researcher needs a person's approval for every lookup. */
const researcher = defineAgent({
  name: "researcher",
  model: "researcher",
  tools: [lookup],
  permission: { ask: ["lookup"] },
});
const lead = defineAgent({
  name: "lead",
  model: "lead",
  tools: [delegateTool({ agents: [researcher], providers: { researcher: researcherScript() } })],
});

/** A subagent that needs no approval. */
const oracle = defineAgent({ name: "oracle", model: "researcher", tools: [lookup] });
const backgroundCall = (subagent: string) =>
  toolCallTurn([
    {
      id: "b1",
      name: "Agent",
      input: {
        tasks: [{ display_name: "tides", subagent_type: subagent, prompt: "why are there tides?" }],
        run_in_background: true,
      },
    },
  ]);
/** Starts a joinable group, says it waits (the run joins instead of ending), then answers from the note. */
const joiner = defineAgent({
  name: "joiner",
  model: "joiner",
  maxTurns: 2,
  tools: [delegateTool({ agents: [oracle], backgroundKind: "joinable" })],
});
const joinerScript = () =>
  conversationScript([
    backgroundCall("oracle"),
    textTurn("Waiting for the report."),
    textTurn("Report: the moon."),
  ]);
/** Starts a detached group and ends its run; the next run gets the note. */
const detacher = defineAgent({
  name: "detacher",
  model: "detacher",
  tools: [delegateTool({ agents: [researcher], backgroundKind: "detached" })],
});
const detacherScript = () =>
  conversationScript([
    { ...backgroundCall("researcher"), usage: USAGE },
    { ...textTurn("I will report later."), usage: USAGE },
    { ...textTurn("The researcher says the moon does it."), usage: USAGE },
  ]);

const EXPECTED_REPORT = `## tides (agentId: SESSION/${D1_FORK}; status: completed)\nTides follow the moon.`;

describe("subagents as child workflows", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("subagents");
  const detacherModel = detacherScript();

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [lead, researcher, oracle, joiner, detacher],
      providers: {
        lead: leadScript(),
        researcher: researcherScript(),
        joiner: joinerScript(),
        detacher: detacherModel,
      },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("delegates to a child session whose approval is answered through the parent; usage rolls up", async () => {
    const sessionId = `lead-${Date.now()}`;
    const child = `${sessionId}/${D1_FORK}`;
    const events: DurableEvent[] = [];
    for await (const event of client.run("lead", "explain tides", { sessionId })) {
      events.push(event);
      if (event.type === "approval_request") {
        expect(event.forkId).toBe(D1_FORK);
        const status = await client.session(sessionId).describe();
        expect(status.status).toBe("awaiting_approval");
        expect(status.subagents).toEqual([{ sessionId: child, agent: "researcher", forkId: D1_FORK }]);
        expect(status.pendingApprovals).toMatchObject([{ callId: "r1", tool: "lookup", sessionId: child }]);
        await client.session(sessionId).approve(event.call.id, { actor: "alice" });
      }
    }
    // The subagent events name the fork too: "child:" marks the child's own events.
    const types = events.map(
      (event) => `${event.forkId && event.type !== "subagent" ? "child:" : ""}${event.type}`,
    );
    const start = types.indexOf("subagent");
    const end = types.lastIndexOf("subagent");
    expect(start).toBeLessThan(end);
    // The child's events come between its start and end, stamped with its fork id.
    expect(types.slice(start + 1, end)).toEqual(
      expect.arrayContaining([
        "child:approval_request",
        "child:approval_resolved",
        "child:tool_result",
        "child:done",
      ]),
    );
    expect(types.slice(0, start).some((type) => type.startsWith("child:"))).toBe(false);
    expect(events[end]).toMatchObject({
      phase: "end",
      status: "completed",
      usage: { inputTokens: 20, outputTokens: 10 },
    });
    expect(events.find((event) => event.type === "tool_result" && !event.forkId)).toMatchObject({
      result: { content: EXPECTED_REPORT.replace("SESSION", sessionId) },
    });
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: "done", result: { usage: { inputTokens: 40, outputTokens: 20 } } });
    expect((await client.session(sessionId).describe()).usage).toEqual({ inputTokens: 40, outputTokens: 20 });

    // A session of its own, a child of the parent's workflow (the UI's Relationships), closed with its task.
    const description = await client.session(child).workflow.describe();
    expect(description.parentExecution?.workflowId).toBe(sessionId);
    expect(description.status.name).toBe("COMPLETED");
    const decision = events.find((event) => event.type === "permission_decision" && event.forkId);
    expect(decision).toMatchObject({ decision: "allow", by: "user", actor: "alice" });
  });

  it("cancelling the parent's run cancels the child session", async () => {
    const sessionId = `lead-cancel-${Date.now()}`;
    const child = `${sessionId}/${D1_FORK}`;
    const events: DurableEvent[] = [];
    for await (const event of client.run("lead", "explain tides", { sessionId })) {
      events.push(event);
      if (event.type === "approval_request") await client.session(sessionId).cancel();
    }
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "aborted" });
    const description = await client.session(child).workflow.describe();
    expect(description.status.name).toBe("CANCELLED");
    expect(events.find((event) => event.type === "subagent" && event.phase === "end")).toMatchObject({
      status: "cancelled",
    });
    const status = await client.session(sessionId).describe();
    expect(status.subagents).toBeUndefined();
    expect(status.pendingApprovals).toEqual([]);
  });

  it("in-process, the same definition runs the subagent in the process with the same report and usage", async () => {
    const sessionId = "local-lead";
    const { events, result } = await collect(
      createAgent({
        ...localAgentConfig(lead, leadScript()),
        approval: { request: () => "allow" },
      }).run("explain tides", { sessionId }),
    );
    const report = events.find(
      (event): event is Extract<AgentEvent, { type: "tool_result" }> =>
        event.type === "tool_result" && !event.forkId,
    );
    expect(report?.result.content).toBe(EXPECTED_REPORT.replace("SESSION", sessionId));
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 20 });
    expect(events.filter((event) => event.forkId === D1_FORK).map((event) => event.type)).toContain("done");
  });

  it("a joinable background group: the tool answers at once, the run joins without using a turn, the note arrives at turn start", async () => {
    const { events, result } = await collect(client.run("joiner", "explain tides"));
    const accepted = events.find((event) => event.type === "tool_result" && !event.forkId);
    expect(accepted).toMatchObject({
      result: { content: expect.stringMatching(/^\[background:bg_\w+\] accepted group with 1 subagent/) },
    });
    const note = events.find((event) => event.type === "background_completed");
    expect(note).toMatchObject({
      completion: {
        label: "Subagent group: tides",
        status: "completed",
        content: expect.stringContaining("Tides follow the moon."),
      },
    });
    // maxTurns is 2, and the run still gets its third turn after the join: a join does not use up the budget.
    const turns = events.flatMap((event) =>
      event.type === "turn_start" && !event.forkId ? [event.turn] : [],
    );
    expect(turns).toEqual([1, 2, 3]);
    expect(result.text).toBe("Report: the moon.");
    expect(result.stopReason).toBe("stop");
  });

  it("a detached background group outlives its run; its note reaches the next run, and show lists it", async () => {
    const sessionId = `detacher-${Date.now()}`;
    const first = await collect(client.run("detacher", "research tides in the background", { sessionId }));
    expect(first.result.text).toBe("I will report later.");
    // The run is over; the group still runs, waiting for the subagent's approval.
    const waiting = await client.session(sessionId).describe();
    expect(waiting.backgroundTasks).toMatchObject([{ label: "Subagent group: tides", done: false }]);
    // The child session gets to its approval on its own time, after the parent's run has ended.
    await expect
      .poll(async () => (await client.session(sessionId).describe()).pendingApprovals, {
        timeout: QUERY_POLL_TIMEOUT_MS,
      })
      .toMatchObject([{ callId: "r1", sessionId: `${sessionId}/${taskForkId("b1", 0)}` }]);
    await client.session(sessionId).approve("r1", { actor: "alice" });
    await expect
      .poll(async () => (await client.session(sessionId).describe()).backgroundTasks?.[0]?.done, {
        timeout: QUERY_POLL_TIMEOUT_MS,
      })
      .toBe(true);
    const second = await collect(client.run("detacher", "anything new?", { sessionId }));
    const note = second.events.find((event) => event.type === "background_completed");
    expect(note).toMatchObject({
      completion: { status: "completed", content: expect.stringContaining("Tides follow the moon.") },
    });
    expect(second.result.text).toBe("The researcher says the moon does it.");
    // The note is in the next run's first model request, after that run's own message.
    const firstOfSecond = detacherModel.requests.find((request) =>
      request.messages.some((message) => message.content === "anything new?"),
    );
    expect(firstOfSecond?.messages.slice(-2)).toMatchObject([
      { role: "user", content: "anything new?" },
      {
        role: "user",
        content: expect.stringMatching(
          /^<background-task-completed id="bg_\w+" label="Subagent group: tides">\n## tides/,
        ),
      },
    ]);
    // The group's usage counts toward the session (its run had ended): 2 parent calls + 2 child + 1.
    expect((await client.session(sessionId).describe()).usage).toEqual({ inputTokens: 50, outputTokens: 25 });
  });
});
