import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentClient, NoWorkerError, SessionError } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { startRunUpdate, steerSignal } from "../../src/contract/messages.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const remoteQueue = uniqueTaskQueue("remote-tools");
const lookup = defineTool({
  name: "lookup",
  description: "looks up",
  schema: z.object({ key: z.string() }),
  execute: ({ key }) => `value of ${key}`,
  taskQueue: remoteQueue,
});
const agentWithRemoteTool = defineAgent({ name: "remote", model: "scripted", tools: [lookup] });
/** The same agent as an older deploy on the tools' task queue knows it: without the `lookup` tool. */
const olderDeploy = defineAgent({ name: "remote", model: "scripted" });
const plain = defineAgent({ name: "plain", model: "chat" });

const script = conversationScript([
  toolCallTurn([{ id: "l1", name: "lookup", input: { key: "k" } }]),
  textTurn("handled"),
]);
const chat = conversationScript([textTurn("one"), textTurn("two"), textTurn("three")]);

describe("bad input gets a clear error and the session stays intact", () => {
  let worker: RunningWorker;
  let toolWorker: RunningWorker;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("bad-input");

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [agentWithRemoteTool, plain],
      providers: { scripted: script, chat },
    });
    toolWorker = await startTestWorker({
      taskQueue: remoteQueue,
      agents: [olderDeploy],
      providers: {},
      toolTaskQueues: [remoteQueue],
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
    await toolWorker?.stop();
  });

  it("a run for an agent no worker serves is refused, naming the agent and its task queue", async () => {
    // Each agent has its own task queue, so the run cannot reach a worker without the agent (which would fail it).
    const impatient = new AgentClient(client.temporal, { taskQueue, workerWaitMs: 500 });
    const error = await impatient.start("ghost", "hello").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoWorkerError);
    expect((error as Error).message).toContain(
      `no worker serves agent 'ghost': nothing polled its task queue '${taskQueue}.ghost'`,
    );
  });

  it("a malformed run input is rejected with the reason; the session keeps working", async () => {
    const sessionId = `bad-run-${Date.now()}`;
    await expect(client.start("plain", "   ", { sessionId })).rejects.toThrow(/'input' must not be empty/);
    const raw = client.session(sessionId).workflow;
    const rawError = await raw
      .executeUpdate(startRunUpdate, { args: [{ agent: "plain", input: 42 } as never] })
      .catch((error: Error) => error);
    expect((rawError as Error & { cause?: Error }).cause?.message).toMatch(
      /'input' must be a string or a non-empty array/,
    );
    await expect(client.start("remote", "hi", { sessionId })).rejects.toThrow(
      /runs agent 'plain', not 'remote'/,
    );
    const ok = await client.send("plain", "hello", { sessionId });
    expect(ok.stopReason).toBe("stop");
  });

  it("a steer to a closed session is rejected with a clear error", async () => {
    const sessionId = `closed-${Date.now()}`;
    await client.send("plain", "hello", { sessionId });
    await client.session(sessionId).close();
    await client.session(sessionId).workflow.result();
    const steer = client.session(sessionId).steer("too late");
    await expect(steer).rejects.toBeInstanceOf(SessionError);
    await expect(client.session(sessionId).steer("too late")).rejects.toThrow(/closed/);
    await expect(client.start("plain", "again", { sessionId })).rejects.toThrow(/closed/);
    await expect(client.session("no-such-session").steer("hi")).rejects.toThrow(/not found/);
  });

  it("a signal with a wrong payload is ignored, reported, and the session keeps working", async () => {
    const sessionId = `bad-signal-${Date.now()}`;
    await client.send("plain", "hello", { sessionId });
    await client.session(sessionId).workflow.signal(steerSignal, { nonsense: true } as never);
    await expect
      .poll(async () => (await client.session(sessionId).describe()).rejectedSignals)
      .toEqual(["steer signal ignored: 'id' must be a non-empty string"]);
    const next = await client.send("plain", "still there?", { sessionId });
    expect(next.stopReason).toBe("stop");
  });

  it("a tool implementation missing on the worker becomes an error result for the model; the run completes", async () => {
    const { events, result } = await collect(client.run("remote", "look it up"));
    const toolResult = events.find((e) => e.type === "tool_result") as Extract<
      AgentEvent,
      { type: "tool_result" }
    >;
    expect(toolResult.result).toMatchObject({
      isError: true,
      content: "Error: tool 'lookup' of agent 'remote' is not registered on this worker",
    });
    expect(result.text).toBe("handled");
  });
});
