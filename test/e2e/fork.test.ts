import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent, workflowModulesOf } from "../../src/define-agent.js";
import { messageText, type Message } from "../../src/kernel/vocabulary/messages.js";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider, type FakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { scheduledActivities } from "../replay/history-events.js";
import { runCliInProcess } from "../support/cli-in-process.js";
import middlewareAgents from "./fixtures/middleware-agents.js";
import {
  connectTestClient,
  temporalAddress,
  startTestWorker,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

const note = defineTool({
  name: "note",
  description: "Takes a note",
  schema: z.object({ text: z.string() }),
  execute: ({ text }) => `noted: ${text}`,
});

/** The last user text of a request (a tool result's turn has none of its own). */
function lastUserText(request: ModelRequest): string {
  const user = request.messages.filter(
    (message) => message.role === "user" && typeof message.content === "string",
  );
  return user.length > 0 ? messageText(user.at(-1)!) : "";
}

/**
 * A model decided by the request alone: "take a note" makes it call `note` once (a two-turn run); otherwise it
 * answers `<label> reply to <last user text> (<n> messages)`.
 */
function echoModel(label: string): FakeProvider {
  return fakeProvider(
    [
      (request) => {
        const text = lastUserText(request);
        const last = request.messages.at(-1);
        const answeredTool =
          Array.isArray(last?.content) && last.content.some((b) => b.type === "tool_result");
        if (text.includes("take a note") && !answeredTool)
          return toolCallTurn([{ id: `note-${request.messages.length}`, name: "note", input: { text } }]);
        return textTurn(`${label} reply to ${text} (${request.messages.length} messages)`);
      },
    ],
    { onExhausted: "repeat-last" },
  );
}

const forker = defineAgent({
  name: "forker",
  model: "scripted",
  tools: [note],
  // Three runs per execution: a nine-run session spans three executions (continue-as-new).
  durable: { continueAsNew: { maxRunsPerExecution: 3 } },
});
const other = defineAgent({ name: "forker-b", model: "scripted-b", tools: [note] });
const careful = defineAgent({
  name: "careful",
  model: "scripted",
  tools: [note],
  permission: { ask: ["note"] },
});

/** The messages of run k of the 10-turn session: run 3 takes a note, so it has two turns (3 and 4). */
const prompt = (k: number) => (k === 3 ? "message 3: take a note" : `message ${k}`);

/** Every payload of a history, decoded to text (whatever the attribute that holds it). */
function payloadTexts(history: unknown): string {
  const json = JSON.stringify(history);
  const data = [...json.matchAll(/"data":"([A-Za-z0-9+/=]*)"/g)].map((match) => match[1]!);
  return data.map((base64) => Buffer.from(base64, "base64").toString("utf8")).join("\n");
}

/**
 * How many events the session's current execution has once no workflow task is pending: its last run continued it as
 * new, and the new execution's first task (slow without a workflow cache) may still be adding events.
 */
async function settledHistoryLength(client: AgentClient, sessionId: string): Promise<number | undefined> {
  const handle = client.temporal.workflow.getHandle(sessionId);
  while ((await handle.describe()).raw.pendingWorkflowTask)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return (await handle.fetchHistory()).events?.length;
}

describe("forking a durable session at a turn", () => {
  const taskQueue = uniqueTaskQueue("fork");
  const models = { scripted: echoModel("a"), "scripted-b": echoModel("b"), other: echoModel("other") };
  let worker: RunningWorker;
  let client: AgentClient;
  const source = `fork-source-${taskQueue}`;

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [forker, other, careful, ...middlewareAgents.agents],
      providers: { ...models, ...middlewareAgents.providers },
    });
    client = await connectTestClient(taskQueue);
    for (let k = 1; k <= 9; k++) await client.send("forker", prompt(k), { sessionId: source });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await worker?.stop();
  });

  it("a fork of a 10-turn session at turn 4 starts with turns 1–4 only, reruns nothing, and goes on independently", async () => {
    const sourceBefore = await client.session(source).describe();
    expect(sourceBefore).toMatchObject({ turns: 10, runsCompleted: 9 });
    const sourceEvents = await settledHistoryLength(client, source);

    const forked = await client.session(source).fork({ atTurn: 4, newSessionId: `fork-at-4-${taskQueue}` });
    expect(forked).toEqual({
      sessionId: `fork-at-4-${taskQueue}`,
      agent: "forker",
      forkedFrom: { sessionId: source, turn: 4 },
      messageCount: 8,
    });
    expect(await client.session(forked.sessionId).describe()).toMatchObject({
      forkedFrom: { sessionId: source, turn: 4 },
      turns: 0,
      runsCompleted: 0,
      messageCount: 8,
    });

    const requestsBefore = models.scripted.requests.length;
    const result = await client.send("forker", "a new direction", { sessionId: forked.sessionId });
    expect(result.text).toBe("a reply to a new direction (9 messages)");
    const seen = models.scripted.requests.slice(requestsBefore).map((request) => request.messages);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.map((message) => messageText(message))).toEqual([
      "message 1",
      "a reply to message 1 (1 messages)",
      "message 2",
      "a reply to message 2 (3 messages)",
      "message 3: take a note",
      "",
      "",
      "a reply to message 3: take a note (7 messages)",
      "a new direction",
    ]);

    // The fork's history: one model call (its own turn 1), no tool call, nothing of the source's turns 5–10.
    const history = await client.temporal.workflow.getHandle(forked.sessionId).fetchHistory();
    expect(scheduledActivities(history, "callModel")).toHaveLength(1);
    expect(scheduledActivities(history, "executeTool")).toHaveLength(0);
    const texts = payloadTexts(history);
    expect(texts).toContain("message 3: take a note");
    for (let k = 4; k <= 9; k++) expect(texts).not.toContain(`message ${k}`);

    // The source is untouched: same status, no new event.
    expect(await client.session(source).describe()).toMatchObject({ turns: 10, runsCompleted: 9 });
    expect((await client.temporal.workflow.getHandle(source).fetchHistory()).events?.length).toBe(
      sourceEvents,
    );
    // ...and goes on independently of the fork.
    const more = await client.send("forker", "message 10", { sessionId: source });
    expect(more.text).toBe("a reply to message 10 (21 messages)");
  });

  it("reads turns of later executions (across continue-as-new) and ends a fork mid-run after the turn's tool results", async () => {
    const late = await client.session(source).fork({ atTurn: 9 });
    expect(late.messageCount).toBe(18);
    const midRun = await client.session(source).fork({ atTurn: 3 });
    expect(midRun.messageCount).toBe(7);
    const status = await client.temporal.workflow.list({ query: `WorkflowId = "${source}"` });
    let executions = 0;
    for await (const _ of status) executions++;
    expect(executions).toBeGreaterThanOrEqual(3);
    const answer = await client.send("forker", "go on", { sessionId: midRun.sessionId });
    expect(answer.text).toBe("a reply to go on (8 messages)");
  });

  it("forks onto another agent or another model", async () => {
    const onAgent = await client.session(source).fork({ atTurn: 2, agent: "forker-b" });
    expect(onAgent.agent).toBe("forker-b");
    expect((await client.send("forker-b", "hi", { sessionId: onAgent.sessionId })).text).toBe(
      "b reply to hi (5 messages)",
    );
    const onModel = await client.session(source).fork({ atTurn: 2, model: "other" });
    expect(await client.session(onModel.sessionId).describe()).toMatchObject({ model: "other" });
    expect((await client.send("forker", "hi", { sessionId: onModel.sessionId })).text).toBe(
      "other reply to hi (5 messages)",
    );
  });

  it("refuses a turn out of range, an unknown session, a taken id and a turn that is not a whole number", async () => {
    await expect(client.session(source).fork({ atTurn: 12 })).rejects.toThrow(
      `fork: session '${source}' has turns 1–11 that ended; turn 12 is out of range`,
    );
    await expect(client.session("no-such-session").fork({ atTurn: 1 })).rejects.toThrow(
      "fork: session 'no-such-session' not found",
    );
    await expect(client.session(source).fork({ atTurn: 0 })).rejects.toThrow(
      "fork: 'atTurn' must be a whole number of 1 or more (got 0)",
    );
    await expect(client.session(source).fork({ atTurn: 1, newSessionId: source })).rejects.toThrow(
      `fork: session '${source}' already exists`,
    );
  });

  it("cannot fork at a turn that waits for an approval; once decided, that turn can be forked", async () => {
    const waiting = `fork-waiting-${taskQueue}`;
    const started = await client.start("careful", "take a note", { sessionId: waiting });
    for (let tries = 0; (await client.session(waiting).describe()).status !== "awaiting_approval"; tries++) {
      if (tries > 200) throw new Error("the run never asked for approval");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await expect(client.session(waiting).fork({ atTurn: 1 })).rejects.toThrow(
      `fork: session '${waiting}' has no turn that ended yet; turn 1 is out of range ` +
        "(a turn still running or waiting for a decision cannot be forked)",
    );
    const [pending] = (await client.session(waiting).describe()).pendingApprovals;
    await client.session(waiting).deny(pending!.callId);
    for await (const _ of client.session(waiting).events(started.runId, { fromOffset: started.offset }));
    const forked = await client.session(waiting).fork({ atTurn: 1 });
    const messages: Message[] = (await client.session(forked.sessionId).transcript()).slice();
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(messages[2])).toContain("denied");
  });

  it("lite-agent fork <session> --turn N prints the new session and how to continue it; misuse exits 2", async () => {
    const global = ["--address", temporalAddress(), "--task-queue", taskQueue];
    const id = `fork-cli-${taskQueue}`;
    const forked = await runCliInProcess(["fork", source, "--turn", "2", "--id", id, ...global]);
    expect(forked.stderr).toBe("");
    expect(forked.code).toBe(0);
    const lines = forked.stdout.split("\n");
    expect(lines[0]).toBe(id);
    expect(lines[1]).toBe(`forked from session ${source} at the end of turn 2: 4 messages, agent forker`);
    expect(lines[2]).toMatch(
      new RegExp(`^continue it: lite-agent --address \\S+ run forker --session ${id} "<your message>"$`),
    );
    expect(await client.session(id).describe()).toMatchObject({
      forkedFrom: { sessionId: source, turn: 2 },
      messageCount: 4,
    });

    const json = await runCliInProcess(["fork", source, "--turn", "1", "--json", ...global]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      agent: "forker",
      forkedFrom: { sessionId: source, turn: 1 },
    });

    const outOfRange = await runCliInProcess(["fork", source, "--turn", "99", ...global]);
    expect(outOfRange.code).toBe(1);
    expect(outOfRange.stderr).toContain("turn 99 is out of range");
    const misuse = await runCliInProcess(["fork", source, "--turn", "zero", ...global]);
    expect(misuse.code).toBe(2);
  });
  it("forks a session whose agent has its own middleware given its modules (workflowModules, the CLI's --agents); without them it says what to pass", async () => {
    const noted = `fork-noted-${taskQueue}`;
    await client.send("fork-noted", "hello", { sessionId: noted });
    await expect(client.session(noted).fork({ atTurn: 1 })).rejects.toThrow(
      /runs middleware 'test\/system-note' from a defineMiddleware module.*`workflowModules`.*--agents <module>/,
    );
    const forked = await client.session(noted).fork({
      atTurn: 1,
      workflowModules: workflowModulesOf(middlewareAgents.agents),
    });
    expect(forked.agent).toBe("fork-noted");
    expect(
      (await client.session(forked.sessionId).transcript()).map((message) => messageText(message)),
    ).toContain("First answer.");

    const global = ["--address", temporalAddress(), "--task-queue", taskQueue];
    const agentsModule = "test/e2e/fixtures/middleware-agents.ts";
    const cli = await runCliInProcess([
      "fork",
      noted,
      "--turn",
      "1",
      "--agents",
      agentsModule,
      "--json",
      ...global,
    ]);
    expect(cli.stderr).toBe("");
    expect(JSON.parse(cli.stdout)).toMatchObject({
      agent: "fork-noted",
      forkedFrom: { sessionId: noted, turn: 1 },
    });
    const without = await runCliInProcess(["fork", noted, "--turn", "1", ...global]);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("--agents <module>");
  });
});
