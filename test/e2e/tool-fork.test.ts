import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient, DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { Message } from "../../src/kernel/vocabulary/messages.js";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider, type FakeStaticTurn } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import { taskForkId } from "../../src/kernel/builtin-tools/delegate-tool.js";

/** The fork id of the first task of call `e1` (ids carry a digest of the call id). */
const E1_FORK = taskForkId("e1", 0);

const USAGE = { inputTokens: 10, outputTokens: 5 };

const lookup = defineTool({
  name: "lookup",
  description: "looks a fact up",
  schema: z.object({ topic: z.string() }),
  execute: ({ topic }) => `facts about ${topic}`,
});
const note = defineTool({
  name: "note",
  description: "writes a note",
  schema: z.object({ text: z.string() }),
  execute: ({ text }) => `noted ${text}`,
});

/** What the fork's own tools saw of `ctx.fork` (a fork cannot fork again). */
const nestedForks: string[] = [];
const probe = defineTool({
  name: "probe",
  description: "reports whether it may fork",
  schema: z.object({}),
  execute: (_input, ctx) => {
    nestedForks.push(ctx.fork ? "fork" : "none");
    return "probed";
  },
});

/** Explores a question in a fork that may only look things up, and reports what the fork found. */
const explore = defineTool({
  name: "explore",
  description: "explores a question in a fork of the agent",
  schema: z.object({ question: z.string(), tools: z.array(z.string()).optional() }),
  retry: "idempotent",
  async execute({ question, tools }, ctx) {
    const allowed = (tools ?? ["lookup"]).map((name) => ({ ...lookup, name }));
    const result = await ctx.fork!(`Explore: ${question}`, { tools: allowed });
    return `fork said: ${result.text} (${result.stopReason}, ${result.usage.inputTokens} input tokens)`;
  },
});

/** Attempts of `flaky`: its first attempt outlives its timeout after its fork ended, so the activity runs again. */
let flakyAttempts = 0;
const flaky = defineTool({
  name: "flaky",
  description: "forks, then hangs on its first attempt",
  schema: z.object({}),
  retry: "idempotent",
  timeoutMs: 4_000,
  async execute(_input, ctx) {
    const attempt = ++flakyAttempts;
    const result = await ctx.fork!("Explore: retried", { forkId: "once" });
    if (attempt === 1) await new Promise((resolve) => setTimeout(resolve, 10_000));
    return `attempt ${attempt}: ${result.text}`;
  },
});

function lastUserText(messages: Message[]): string {
  for (const message of [...messages].reverse())
    if (message.role === "user" && typeof message.content === "string") return message.content;
  return "";
}

/**
 * The model of both the parent and its forks: a fork's conversation holds its `Explore:` input. The parent calls
 * the tool its first message names; a fork calls `probe` then `lookup`, then answers.
 */
function forkerTurn(request: ModelRequest): FakeStaticTurn {
  const answers = request.messages.filter((message) => message.role === "assistant").length;
  const explore = request.messages.findIndex(
    (message) =>
      message.role === "user" &&
      typeof message.content === "string" &&
      message.content.startsWith("Explore:"),
  );
  if (explore >= 0) {
    const forkAnswers = request.messages.slice(explore).filter((m) => m.role === "assistant").length;
    if (forkAnswers === 0 && (request.tools ?? []).some((tool) => tool.name === "probe"))
      return { ...toolCallTurn([{ id: "p1", name: "probe", input: {} }]), usage: USAGE };
    if (forkAnswers <= 1 && !request.messages.slice(explore).some(isLookupResult))
      return { ...toolCallTurn([{ id: "f1", name: "lookup", input: { topic: "tides" } }]), usage: USAGE };
    return { ...textTurn(`Found ${lastToolResult(request.messages)}`), usage: USAGE };
  }
  if (answers === 0) {
    const [tool, args] = parentCall(lastUserText(request.messages));
    return { ...toolCallTurn([{ id: "e1", name: tool, input: args }]), usage: USAGE };
  }
  return { ...textTurn(`Parent: ${lastToolResult(request.messages)}`), usage: USAGE };
}

function parentCall(prompt: string): [string, Record<string, unknown>] {
  if (prompt.startsWith("flaky")) return ["flaky", {}];
  if (prompt.startsWith("bad tools")) return ["explore", { question: "tides", tools: ["lookup", "shell"] }];
  if (prompt.startsWith("probe")) return ["explore", { question: "tides", tools: ["probe", "lookup"] }];
  return ["explore", { question: "tides" }];
}

/** A fork's first model call: its input is the last user text, and no answer follows it yet. */
function isFirstCall(request: ModelRequest, input: string): boolean {
  const last = request.messages.at(-1);
  return last?.role === "user" && last.content === input;
}

function isLookupResult(message: Message): boolean {
  return (
    Array.isArray(message.content) &&
    message.content.some((block) => block.type === "tool_result" && block.id === "f1")
  );
}

function lastToolResult(messages: Message[]): string {
  for (const message of [...messages].reverse())
    if (Array.isArray(message.content))
      for (const block of message.content) if (block.type === "tool_result") return String(block.content);
  return "(none)";
}

const forker = defineAgent({ name: "forker", model: "forker", tools: [explore, flaky, lookup, note, probe] });
/** The same, but every lookup needs a person's approval. */
const careful = defineAgent({
  name: "careful",
  model: "forker",
  tools: [explore, lookup],
  permission: { ask: ["lookup"] },
});

describe("ctx.fork from a tool in a durable run: a child session of the agent", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const provider = fakeProvider([forkerTurn], { onExhausted: "repeat-last" });
  const taskQueue = uniqueTaskQueue("tool-fork");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents: [forker, careful], providers: { forker: provider } });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("runs the fork as a child workflow seeded with the conversation; its events stream through the parent; usage rolls up", async () => {
    const sessionId = `forker-${Date.now()}`;
    const forkSession = `${sessionId}/${E1_FORK}`;
    const events: DurableEvent[] = [];
    for await (const event of client.run("forker", "explain tides", { sessionId })) events.push(event);

    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: "done", reason: "stop" });
    const result = (done as Extract<DurableEvent, { type: "done" }>).result;
    expect(result.text).toBe("Parent: fork said: Found facts about tides (stop, 20 input tokens)");
    // Two parent calls and two fork calls.
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 20 });

    const types = events.map(
      (event) => `${event.forkId && event.type !== "subagent" ? "fork:" : ""}${event.type}`,
    );
    const start = types.indexOf("subagent");
    const end = types.lastIndexOf("subagent");
    expect(events[start]).toMatchObject({
      phase: "start",
      forkId: E1_FORK,
      sessionId: forkSession,
      agent: "forker",
    });
    expect(events[end]).toMatchObject({ phase: "end", status: "completed", usage: { inputTokens: 20 } });
    expect(types.slice(start + 1, end)).toEqual(
      expect.arrayContaining(["fork:model_call_start", "fork:tool_result", "fork:done"]),
    );
    // The parent's result for the tool comes after the fork ended.
    const parentResult = events.findIndex((e) => e.type === "tool_result" && e.forkId === undefined);
    expect(parentResult).toBeGreaterThan(end);

    // The fork started from the conversation before the assistant message that called the tool, with only lookup.
    const forkRequest = provider.requests.find((request) => isFirstCall(request, "Explore: tides"))!;
    expect(forkRequest.messages).toEqual([
      { role: "user", content: "explain tides" },
      { role: "user", content: "Explore: tides" },
    ]);
    expect((forkRequest.tools ?? []).map((tool) => tool.name)).toEqual(["lookup"]);

    // A child workflow of the session: the Temporal UI shows it under the parent.
    const child = await client.temporal.workflow.getHandle(forkSession).describe();
    expect(child.parentExecution?.workflowId).toBe(sessionId);
    expect(child.status.name).toBe("COMPLETED");
  });

  it("a fork's tools get no ctx.fork (one level), and a tool the agent does not have is refused with a clear error", async () => {
    nestedForks.length = 0;
    const probed = await client.send("forker", "probe it", { sessionId: `probe-${Date.now()}` });
    expect(probed.text).toContain("fork said: Found");
    expect(nestedForks).toEqual(["none"]);

    const refused = await client.send("forker", "bad tools", { sessionId: `bad-${Date.now()}` });
    expect(refused.text).toMatch(/Error: .*'forker' has no 'shell'/);
  });

  it("a startFork request for a call that is not running is rejected with the reason", async () => {
    const sessionId = `idle-${Date.now()}`;
    await client.send("forker", "explain tides", { sessionId });
    const handle = client.temporal.workflow.getHandle(sessionId);
    const refusal = (request: object) =>
      handle.executeUpdate("startFork", { args: [request] }).then(
        () => "accepted",
        (error: Error) => (error.cause as Error).message,
      );
    expect(await refusal({ callId: "e1", input: "x", forkId: "task-x" })).toMatch(
      /startFork: no tool call 'e1' is running in this session/,
    );
    expect(await refusal({ callId: "e1", input: "x", forkId: "a/b" })).toMatch(/'forkId' must be/);
  });

  it("a retried tool activity rejoins the fork its first attempt started instead of starting another", async () => {
    flakyAttempts = 0;
    const sessionId = `flaky-${Date.now()}`;
    const before = provider.requests.filter((request) => isFirstCall(request, "Explore: retried")).length;
    const result = await client.send("forker", "flaky", { sessionId });
    // The first attempt outlives its timeout; a later one answers (on a loaded machine a second attempt can time out
    // too: the run takes the result of the attempt that answered, the last).
    expect(flakyAttempts).toBeGreaterThanOrEqual(2);
    expect(result.text).toBe(`Parent: attempt ${flakyAttempts}: Found facts about tides`);
    // One fork: its first model call happened once.
    const forkFirstCalls = provider.requests.filter((request) =>
      isFirstCall(request, "Explore: retried"),
    ).length;
    expect(forkFirstCalls - before).toBe(1);
    // The session started one child workflow.
    const history = await client.temporal.workflow.getHandle(sessionId).fetchHistory();
    const children = (history.events ?? []).filter(
      (event) => event.startChildWorkflowExecutionInitiatedEventAttributes,
    );
    expect(children).toHaveLength(1);
  });

  it("a fork's approval is answered through the parent; cancelling the parent cancels the fork and leaves no approval", async () => {
    const sessionId = `careful-${Date.now()}`;
    const forkSession = `${sessionId}/${E1_FORK}`;
    let approved = false;
    const first: DurableEvent[] = [];
    for await (const event of client.run("careful", "explain tides", { sessionId })) {
      first.push(event);
      if (event.type === "approval_request" && !approved) {
        approved = true;
        expect(event.forkId).toBe(E1_FORK);
        const status = await client.session(sessionId).describe();
        expect(status.pendingApprovals).toMatchObject([
          { callId: "f1", tool: "lookup", sessionId: forkSession },
        ]);
        await client.session(sessionId).approve(event.call.id, { actor: "alice" });
      }
    }
    expect(first.at(-1)).toMatchObject({ type: "done", reason: "stop" });

    const second = `careful2-${Date.now()}`;
    for await (const event of client.run("careful", "explain tides", { sessionId: second })) {
      if (event.type === "approval_request") await client.session(second).cancel();
    }
    const child = await client.temporal.workflow.getHandle(`${second}/${E1_FORK}`).describe();
    expect(child.status.name).toBe("CANCELLED");
    const status = await client.session(second).describe();
    expect(status.pendingApprovals).toEqual([]);
    expect(status.subagents ?? []).toEqual([]);
    expect(status.status).toBe("idle");
  });
});
