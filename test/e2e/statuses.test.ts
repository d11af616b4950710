import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Worker } from "@temporalio/worker";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { AgentClient, NoWorkerError } from "../../src/client.js";
import { listQuery } from "../../src/cli/options/list-query.js";
import { defineAgent } from "../../src/define-agent.js";
import { askUserTool } from "../../src/kernel/builtin-tools/ask-user-tool.js";
import { ProviderError } from "../../src/kernel/vocabulary/errors.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { agentSession } from "../../src/workflows/session/agent-session.js";
import { HANDLER_DESCRIPTIONS } from "../../src/contract/handler-descriptions.js";
import { startRunUpdate } from "../../src/contract/messages.js";
import type { SessionStatus } from "../../src/contract/session-status.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import { boundaryWhenStuck, updateWithRetry } from "../../src/runtime/update-with-retry.js";

const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded order ${order}`,
});
const chat = defineAgent({ name: "chat", model: "chat" });
const flaky = defineAgent({ name: "flaky", model: "flaky" });
const approver = defineAgent({
  name: "approver",
  model: "approver",
  tools: [refund],
  permission: { ask: ["refund"] },
});
const asker = defineAgent({ name: "asker", model: "asker", tools: [askUserTool()] });

/** Fails with a fatal provider error when asked to fail, else answers. */
const flakyProvider = fakeProvider(
  [
    (request) =>
      JSON.stringify(request.messages.at(-1)).includes("please fail")
        ? { error: new ProviderError("model says no: bad request", 400) }
        : textTurn("fine"),
  ],
  { onExhausted: "repeat-last" },
);

describe("AgentStatus is true for every state, and the UI explains the session", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("statuses");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [chat, flaky, approver, asker],
      providers: {
        chat: fakeProvider([textTurn("ok")], { onExhausted: "repeat-last" }),
        flaky: flakyProvider,
        approver: conversationScript([
          toolCallTurn([{ id: "r1", name: "refund", input: { order: 1 } }]),
          textTurn("refunded"),
        ]),
        asker: conversationScript([
          toolCallTurn([{ id: "q1", name: "ask_user", input: { question: "Which colour?" } }]),
          textTurn("noted"),
        ]),
      },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const agentStatus = async (sessionId: string) => {
    const description = await client.session(sessionId).workflow.describe();
    return description.searchAttributes.AgentStatus;
  };
  const listed = async (status: SessionStatus["status"]) => {
    const ids: string[] = [];
    for await (const session of client.list({ query: listQuery({ status }) })) ids.push(session.sessionId);
    return ids;
  };
  const until = (read: () => Promise<unknown>, expected: unknown) =>
    expect.poll(read, { timeout: 15_000, interval: 250 }).toEqual(expected);

  it("a run that ends with an error leaves the session failed, with why, until a run succeeds", async () => {
    const sessionId = `failed-${randomUUID()}`;
    const { result } = await collect(client.run("flaky", "please fail", { sessionId }));
    expect(result.stopReason).toBe("error");
    const status = await client.session(sessionId).describe();
    expect(status.status).toBe("failed");
    expect(status.failure?.message).toMatch(/model says no/);
    await until(() => agentStatus(sessionId), ["failed"]);
    await until(() => listed("failed").then((ids) => ids.includes(sessionId)), true);

    expect((await client.send("flaky", "now answer", { sessionId })).text).toBe("fine");
    const after = await client.session(sessionId).describe();
    expect(after.status).toBe("idle");
    expect(after.failure).toBeUndefined();
    await until(() => agentStatus(sessionId), ["idle"]);
  });

  it("closing a session makes it closed, in the status and the search attribute", async () => {
    const sessionId = `closed-${randomUUID()}`;
    await client.send("chat", "hello", { sessionId });
    await client.session(sessionId).close();
    await client.session(sessionId).workflow.result();
    await until(() => agentStatus(sessionId), ["closed"]);
    await until(() => listed("closed").then((ids) => ids.includes(sessionId)), true);
  });

  it("a run for an agent no worker serves is refused at the client; no session is created", async () => {
    const sessionId = `ghost-${randomUUID()}`;
    const quick = new AgentClient(client.temporal, { taskQueue, workerWaitMs: 0 });
    await expect(quick.start("ghost", "hello", { sessionId })).rejects.toBeInstanceOf(NoWorkerError);
    await expect(client.session(sessionId).describe()).rejects.toThrow(/not found/);
  });

  it("a session whose agent the worker does not know (started by hand) ends visibly failed, and its history replays", async () => {
    const sessionId = `ghost-by-hand-${randomUUID()}`;
    // As from the UI or `temporal workflow start`: on a queue a worker polls, for an agent it does not have.
    await client.temporal.workflow.start(agentSession, {
      workflowId: sessionId,
      taskQueue: client.taskQueueFor("chat"),
      args: [{ sessionId, agent: "ghost" }],
    });
    // Sent as any client must: again, with the same id, while the session refuses it as busy.
    const started = await updateWithRetry(
      (updateId) =>
        client
          .session(sessionId)
          .workflow.executeUpdate(startRunUpdate, { args: [{ agent: "ghost", input: "hello" }], updateId }),
      boundaryWhenStuck(client.session(sessionId).workflow),
    );
    const { events, result } = await collect(
      client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    );
    expect(result.stopReason).toBe("error");
    expect(events.find((event) => event.type === "error")).toMatchObject({ fatal: true });
    await client.session(sessionId).workflow.result();
    const status = await client.session(sessionId).describe();
    expect(status.status).toBe("failed");
    expect(status.failure?.message).toMatch(/unknown agent 'ghost'/);
    await until(() => agentStatus(sessionId), ["failed"]);
    await until(() => listed("failed").then((ids) => ids.includes(sessionId)), true);
    const history = await client.session(sessionId).workflow.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: await loadWorkflowBundle() }, history, sessionId);
  });

  it("list --status finds sessions in each state", async () => {
    const idle = `list-idle-${randomUUID()}`;
    await client.send("chat", "hello", { sessionId: idle });
    const approval = `list-approval-${randomUUID()}`;
    await client.start("approver", "refund", { sessionId: approval });
    const input = `list-input-${randomUUID()}`;
    await client.start("asker", "ask", { sessionId: input });
    await until(() => listed("idle").then((ids) => ids.includes(idle)), true);
    await until(() => listed("awaiting_approval").then((ids) => ids.includes(approval)), true);
    await until(() => listed("awaiting_input").then((ids) => ids.includes(input)), true);
    await client.session(approval).cancel();
    await client.session(input).cancel();
    await until(() => listed("awaiting_approval").then((ids) => ids.includes(approval)), false);
  });

  it("every signal, update and query of a session carries a description for the UI's forms", async () => {
    const sessionId = `described-${randomUUID()}`;
    await client.send("chat", "hello", { sessionId });
    const metadata = (await client.session(sessionId).workflow.query("__temporal_workflow_metadata")) as {
      definition: Record<string, { name: string; description?: string }[]>;
    };
    const handlers = [
      ...metadata.definition.signalDefinitions!,
      ...metadata.definition.updateDefinitions!,
      ...metadata.definition.queryDefinitions!,
    ];
    for (const [name, description] of Object.entries(HANDLER_DESCRIPTIONS)) {
      expect(handlers.find((handler) => handler.name === name)?.description).toBe(description);
    }
    const details = await client.session(sessionId).workflow.describe();
    expect(await details.staticSummary()).toMatch(/agent chat/);
  });
});
