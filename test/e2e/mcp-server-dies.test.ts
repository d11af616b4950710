import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import { createAgent } from "../../src/agent.js";
import { defineAgent, type AgentDefinition } from "../../src/define-agent.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { fakeProvider, type FakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { eventsOf } from "../replay/history-events.js";
import { everythingServer, startedPids, startHttpEverything } from "../support/mcp-servers.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const pidDir = mkdtempSync(join(tmpdir(), "mcp-dies-"));
const LONG = "everything__trigger-long-running-operation";
/** The long call runs this many seconds; the test kills its server well inside them. */
const LONG_SECONDS = 5;
/** How long after the call starts the server is killed: the request is at the server by then. */
const KILL_AFTER_MS = 1_500;

/**
 * server-everything, its starts logged to a pid file. `trigger-long-running-operation` says it is read-only and
 * idempotent; with `trustAnnotations: false` every tool is at-most-once instead.
 */
function dyingAgent(
  name: string,
  trustAnnotations: boolean,
): { definition: AgentDefinition; pidFile: string } {
  const pidFile = join(pidDir, `${name}.pids`);
  const server = everythingServer({
    pidFile,
    trustAnnotations,
    allow: ["trigger-long-running-operation", "echo"],
  });
  return { definition: defineAgent({ name, model: name, mcpServers: { everything: server } }), pidFile };
}

/** Run 1 makes the long call; run 2 (after the server died) echoes. */
function script(): FakeProvider {
  return fakeProvider([
    toolCallTurn([{ id: "long", name: LONG, input: { duration: LONG_SECONDS, steps: LONG_SECONDS } }]),
    textTurn("done"),
    toolCallTurn([{ id: "again", name: "everything__echo", input: { message: "back" } }]),
    textTurn("done again"),
  ]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Drains a run; once the long call has started (and had time to reach the server), kills the server process. */
async function killingDuringLongCall(
  events: AsyncIterable<AgentEvent>,
  pidFile: string,
): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  let killed: Promise<void> | undefined;
  for await (const event of events) {
    seen.push(event);
    if (event.type === "tool_call_start" && event.call.name === LONG)
      killed = sleep(KILL_AFTER_MS).then(() => void process.kill(startedPids(pidFile).at(-1)!, "SIGKILL"));
  }
  await killed;
  return seen;
}

function resultOf(events: AgentEvent[], id: string) {
  const found = events.find((event) => event.type === "tool_result" && event.result.id === id);
  return found?.type === "tool_result" ? found.result : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const LOST =
  /MCP server 'everything' ended during the call to 'trigger-long-running-operation'.*The call was not repeated/s;
const COMPLETED = `Long running operation completed. Duration: ${LONG_SECONDS} seconds, Steps: ${LONG_SECONDS}.`;

describe("an MCP server that dies mid-call, in process", () => {
  async function runTwice(name: string, trust: boolean) {
    const { definition, pidFile } = dyingAgent(name, trust);
    const agent = createAgent(localAgentConfig(definition, script()));
    const first = await killingDuringLongCall(agent.run("long", { sessionId: name }), pidFile);
    const afterFirst = startedPids(pidFile);
    const second: AgentEvent[] = [];
    for await (const event of agent.run("again", { sessionId: name })) second.push(event);
    const pids = startedPids(pidFile);
    await agent.close();
    return { first, second, afterFirst, pids };
  }

  it("at-most-once: the model is told the server ended and the call was not repeated; the next run reconnects; close() ends the server", async () => {
    const { first, second, afterFirst, pids } = await runTwice("dies-once-local", false);
    expect(resultOf(first, "long")).toMatchObject({ isError: true, content: expect.stringMatching(LOST) });
    expect(afterFirst).toHaveLength(1);
    expect(resultOf(second, "again")).toMatchObject({ content: "Echo: back" });
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  }, 60_000);

  it("idempotent: the call runs again on a fresh server and completes", async () => {
    const { first, afterFirst } = await runTwice("dies-idem-local", true);
    expect(resultOf(first, "long")).toEqual({ id: "long", name: LONG, content: COMPLETED });
    expect(afterFirst).toHaveLength(2);
  }, 60_000);
});

describe("an MCP server over streamable HTTP that stops mid-call, in process", () => {
  it("at-most-once: once the SDK gives up resuming the stream, the model is told (not left to the call's timeout)", async () => {
    const http = await startHttpEverything();
    try {
      const definition = defineAgent({
        name: "http-dies",
        model: "http-dies",
        mcpServers: { everything: http.config({ trustAnnotations: false, timeoutMs: 60_000 }) },
      });
      const agent = createAgent(localAgentConfig(definition, script()));
      const events: AgentEvent[] = [];
      let stopped: Promise<void> | undefined;
      for await (const event of agent.run("long")) {
        events.push(event);
        if (event.type === "tool_call_start") stopped = sleep(KILL_AFTER_MS).then(() => http.stop());
      }
      await stopped;
      await agent.close();
      expect(resultOf(events, "long")).toMatchObject({ isError: true, content: expect.stringMatching(LOST) });
    } finally {
      await http.stop();
    }
  }, 60_000);
});

describe("an MCP server that dies mid-call, durably (the connection lives on the worker)", () => {
  let worker: RunningWorker | undefined;
  let client: AgentClient;
  const taskQueue = uniqueTaskQueue("mcp-dies");
  const once = dyingAgent("dies-once", false);
  const idem = dyingAgent("dies-idem", true);

  beforeAll(async () => {
    worker = await startTestWorker({
      taskQueue,
      agents: [once.definition, idem.definition],
      providers: { "dies-once": script(), "dies-idem": script() },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
    rmSync(pidDir, { recursive: true, force: true });
  });

  /** The callMcpTool activity's attempts as the history ends them: `completed` or the failure's type, with the attempt. */
  async function callAttempts(sessionId: string): Promise<string[]> {
    const history = await client.session(sessionId).workflow.fetchHistory();
    return eventsOf(history).flatMap((event) => {
      const failed = event.activityTaskFailedEventAttributes;
      if (failed) return [`failed ${failed.failure?.applicationFailureInfo?.type ?? "?"}`];
      if (event.activityTaskStartedEventAttributes && event.activityTaskStartedEventAttributes.attempt! > 1)
        return [`attempt ${event.activityTaskStartedEventAttributes.attempt}`];
      return [];
    });
  }

  it("at-most-once: one attempt, the model is told; the next run lists and calls on a new server", async () => {
    const sessionId = `dies-once-${Date.now()}`;
    const first = await killingDuringLongCall(client.run("dies-once", "long", { sessionId }), once.pidFile);
    expect(resultOf(first, "long")).toMatchObject({ isError: true, content: expect.stringMatching(LOST) });
    expect(await callAttempts(sessionId)).toEqual(["failed LiteAgent.McpConnectionLost"]);
    expect(startedPids(once.pidFile)).toHaveLength(1);
    const second = await client.send("dies-once", "again", { sessionId });
    expect(second.text).toBe("done again");
    expect(JSON.stringify(second.messages)).toContain("Echo: back");
    expect(startedPids(once.pidFile)).toHaveLength(2);
  }, 60_000);

  it("idempotent: retried on a fresh connection (a new server process) and completes", async () => {
    const sessionId = `dies-idem-${Date.now()}`;
    const first = await killingDuringLongCall(client.run("dies-idem", "long", { sessionId }), idem.pidFile);
    expect(resultOf(first, "long")).toEqual({ id: "long", name: LONG, content: COMPLETED });
    // Temporal records only the last attempt: the second, which completed.
    expect(await callAttempts(sessionId)).toEqual(["attempt 2"]);
    expect(startedPids(idem.pidFile)).toHaveLength(2);
  }, 60_000);

  it("stopping the worker closes its connections: no server process outlives it", async () => {
    const started = [...startedPids(once.pidFile), ...startedPids(idem.pidFile)];
    expect(started.filter(isAlive).length).toBeGreaterThan(0);
    await worker!.stop();
    worker = undefined;
    expect(started.filter(isAlive)).toEqual([]);
  }, 30_000);
});
