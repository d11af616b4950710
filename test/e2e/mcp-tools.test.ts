import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import { defineAgent, type AgentDefinition } from "../../src/define-agent.js";
import { localAgentConfig } from "../../src/local-agent-config.js";
import { createAgent } from "../../src/agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { fakeProvider, type FakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn, type ScriptedToolCall } from "../../src/testing/builders.js";
import { defaultPayloadConverter } from "@temporalio/common";
import { Worker } from "@temporalio/worker";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import type { SessionInput } from "../../src/contract/session-input.js";
import { scheduledActivities } from "../replay/history-events.js";
import { collect } from "../support/collect.js";
import {
  everythingServer,
  filesystemServer,
  startHttpEverything,
  type HttpEverything,
} from "../support/mcp-servers.js";
import { toolResultCount } from "../support/tool-loop-model.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const folder = realpathSync(mkdtempSync(join(tmpdir(), "mcp-fs-")));
const note = join(folder, "note.txt");

/** Two real servers from npm: server-everything (two tools allowed) and server-filesystem over a temp folder. */
const toolsAgent = defineAgent({
  name: "mcp-tools",
  model: "mcp-tools",
  mcpServers: {
    everything: everythingServer({ allow: ["echo", "get-sum"] }),
    fs: filesystemServer(folder, { allow: ["write_file", "edit_file", "read_*"] }),
  },
});

/** Each turn calls these tools, in order; then the model answers. */
const TURNS: ScriptedToolCall[][] = [
  [
    { id: "echo", name: "everything__echo", input: { message: "hello" } },
    { id: "sum", name: "everything__get-sum", input: { a: 2, b: 3 } },
    { id: "write", name: "fs__write_file", input: { path: note, content: "written by the agent" } },
  ],
  [
    {
      id: "edit",
      name: "fs__edit_file",
      input: { path: note, edits: [{ oldText: "the agent", newText: "MCP" }] },
    },
  ],
  [
    { id: "read", name: "fs__read_text_file", input: { path: note } },
    // Not in the allow list: neither offered nor callable.
    { id: "env", name: "everything__get-env", input: {} },
  ],
];

/** Plays TURNS by the number of results so far, so it answers alike wherever a run resumes. */
function turnsModel(turns: ScriptedToolCall[][]): FakeProvider {
  let calls = 0;
  return fakeProvider(
    [
      (request) => {
        const done = toolResultCount(request);
        if (done >= turns.length) return textTurn("done");
        return toolCallTurn(turns[done]!.map((call) => ({ ...call, id: `${call.id}-${++calls}` })));
      },
    ],
    { onExhausted: "repeat-last" },
  );
}

/** Each tool result's content by call id (without the numbering suffix), and whether it is an error. */
function resultsById(events: AgentEvent[]): Record<string, { content: string; isError: boolean }> {
  const results: Record<string, { content: string; isError: boolean }> = {};
  for (const event of events)
    if (event.type === "tool_result")
      results[event.result.id.replace(/-\d+$/, "")] = {
        content: event.result.content,
        isError: event.result.isError === true,
      };
  return results;
}

const toolNames = (request: ModelRequest | undefined) => (request?.tools ?? []).map((tool) => tool.name);

const EXPECTED_TOOLS = [
  "everything__echo",
  "everything__get-sum",
  "fs__edit_file",
  "fs__read_file",
  "fs__read_media_file",
  "fs__read_multiple_files",
  "fs__read_text_file",
  "fs__write_file",
];

function expectResults(events: AgentEvent[]): void {
  const results = resultsById(events);
  expect(results.echo).toEqual({ content: "Echo: hello", isError: false });
  expect(results.sum).toEqual({ content: "The sum of 2 and 3 is 5.", isError: false });
  expect(results.write?.isError).toBe(false);
  expect(results.edit?.isError).toBe(false);
  expect(results.read).toEqual({ content: "written by MCP", isError: false });
  expect(results.env).toEqual({ content: "Error: unknown tool 'everything__get-env'", isError: true });
}

async function runInProcess(definition: AgentDefinition, model: FakeProvider, input = "go") {
  const agent = createAgent(localAgentConfig(definition, model));
  try {
    return await collect(agent.run(input));
  } finally {
    await agent.close();
  }
}

/** Calls the echo tool `calls` times (one call a turn), then answers: long enough to continue as new mid-run. */
function echoLoop(calls: number): FakeProvider {
  return fakeProvider(
    [
      (request) => {
        const done = toolResultCount(request);
        if (done >= calls) return textTurn(`echoed ${done} times`);
        return toolCallTurn([
          { id: `loop-${done}`, name: "everything__echo", input: { message: `m${done}` } },
        ]);
      },
    ],
    { onExhausted: "repeat-last" },
  );
}

const LOOP_CALLS = 8;
const carryAgent = defineAgent({
  name: "mcp-carry",
  model: "mcp-carry",
  mcpServers: { everything: everythingServer({ allow: ["echo"] }) },
  durable: { continueAsNew: { maxHistoryEvents: 40 } },
});

/** One server that cannot start (its script does not exist) beside one that works. */
const missingAgent = defineAgent({
  name: "mcp-missing",
  model: "mcp-missing",
  mcpServers: {
    gone: { command: process.execPath, args: [join(folder, "no-such-server.js")] },
    everything: everythingServer({ allow: ["echo"] }),
  },
});
const echoOnce = () =>
  fakeProvider([
    toolCallTurn([{ id: "e1", name: "everything__echo", input: { message: "still here" } }]),
    textTurn("done"),
  ]);

/** The run went on with the working server's tools, and said which server it lacks and why. */
function expectWithoutGone(events: AgentEvent[]): void {
  expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
  expect(resultsById(events).e1).toEqual({ content: "Echo: still here", isError: false });
  const unavailable = events.filter(
    (event) => event.type === "diagnostic" && event.code === "mcp_server_unavailable",
  );
  expect(unavailable).toHaveLength(1);
  expect(unavailable[0]).toMatchObject({
    level: "error",
    message: expect.stringMatching(
      /MCP server 'gone' are not available.*could not be reached.*no-such-server\.js/s,
    ),
  });
}

describe("MCP servers' tools as the agent's tools", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  let http: HttpEverything;
  const durableModel = turnsModel(TURNS);
  const httpModel = fakeProvider(
    [toolCallTurn([{ id: "h1", name: "remote__echo", input: { message: "over HTTP" } }]), textTurn("done")],
    { onExhausted: "repeat-last" },
  );
  const carryModel = echoLoop(LOOP_CALLS);
  const taskQueue = uniqueTaskQueue("mcp-tools");
  let httpAgent: AgentDefinition;

  beforeAll(async () => {
    http = await startHttpEverything();
    httpAgent = defineAgent({ name: "mcp-http", model: "mcp-http", mcpServers: { remote: http.config() } });
    worker = await startTestWorker({
      taskQueue,
      agents: [toolsAgent, httpAgent, carryAgent, missingAgent],
      providers: {
        "mcp-tools": durableModel,
        "mcp-http": httpModel,
        "mcp-carry": carryModel,
        "mcp-missing": echoOnce(),
      },
    });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
    await http?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it("in process: the allowed tools of server-everything and server-filesystem, named <server>__<tool>", async () => {
    const model = turnsModel(TURNS);
    const { events, result } = await runInProcess(toolsAgent, model);
    expect(result.stopReason).toBe("stop");
    expect(toolNames(model.requests[0])).toEqual(EXPECTED_TOOLS);
    expectResults(events);
    expect(readFileSync(note, "utf8")).toBe("written by MCP");
  }, 60_000);

  it("durably: the same tools and results; a listing activity per server, one call activity per call, retried by annotations", async () => {
    rmSync(note, { force: true });
    const sessionId = `mcp-tools-${Date.now()}`;
    const events: AgentEvent[] = [];
    for await (const event of client.run("mcp-tools", "go", { sessionId })) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
    expect(toolNames(durableModel.requests[0])).toEqual(EXPECTED_TOOLS);
    expectResults(events);
    expect(readFileSync(note, "utf8")).toBe("written by MCP");

    const history = await client.session(sessionId).workflow.fetchHistory();
    expect(scheduledActivities(history, "listMcpTools")).toHaveLength(2);
    const attempts = Object.fromEntries(
      scheduledActivities(history, "callMcpTool").map((event) => {
        const scheduled = event.activityTaskScheduledEventAttributes!;
        const input = defaultPayloadConverter.fromPayload<{ call: { id: string } }>(
          scheduled.input!.payloads![0]!,
        );
        return [input.call.id.replace(/-\d+$/, ""), scheduled.retryPolicy?.maximumAttempts];
      }),
    );
    // edit_file is neither read-only nor idempotent: one attempt. The others say they are: retried.
    expect(attempts).toEqual({ echo: 5, sum: 5, write: 5, edit: 1, read: 5 });
  }, 60_000);

  it("a server over streamable HTTP (server-everything's streamableHttp mode), in both drivers", async () => {
    const local = fakeProvider(
      [toolCallTurn([{ id: "h1", name: "remote__echo", input: { message: "over HTTP" } }]), textTurn("done")],
      { onExhausted: "repeat-last" },
    );
    const inProcess = await runInProcess(httpAgent, local);
    expect(resultsById(inProcess.events).h1).toEqual({ content: "Echo: over HTTP", isError: false });

    const events: AgentEvent[] = [];
    for await (const event of client.run("mcp-http", "go", { sessionId: `mcp-http-${Date.now()}` }))
      events.push(event);
    expect(resultsById(events).h1).toEqual({ content: "Echo: over HTTP", isError: false });
    expect(toolNames(httpModel.requests[0])).toContain("remote__trigger-long-running-operation");
  }, 60_000);

  it("a server that cannot start costs only its own tools: the run goes on and a diagnostic says why, in both drivers", async () => {
    expectWithoutGone((await runInProcess(missingAgent, echoOnce())).events);
    const events: AgentEvent[] = [];
    for await (const event of client.run("mcp-missing", "go", { sessionId: `mcp-missing-${Date.now()}` }))
      events.push(event);
    expectWithoutGone(events);
  }, 60_000);

  it("a run that continues as new mid-run keeps the list it was given: listed once, carried, replayable without the server", async () => {
    const sessionId = `mcp-carry-${Date.now()}`;
    const result = await client.send("mcp-carry", "echo away", { sessionId });
    expect(result.text).toBe(`echoed ${LOOP_CALLS} times`);
    const histories = await executionHistories(client, sessionId);
    expect(histories.length).toBeGreaterThan(1);
    const count = (type: string) =>
      histories.reduce((sum, history) => sum + scheduledActivities(history, type).length, 0);
    expect(count("listMcpTools")).toBe(1);
    expect(count("callMcpTool")).toBe(LOOP_CALLS);
    // Every execution that continued as new with the run in progress carried the list to the next (one may also
    // continue as new once the run has ended, carrying no run).
    const carried = histories.flatMap((history) => carriedRun(history));
    expect(carried.length).toBeGreaterThan(0);
    for (const run of carried) expect(run.mcpTools?.map((tool) => tool.name)).toEqual(["everything__echo"]);
    expect(new Set(carryModel.requests.map((request) => toolNames(request).join()))).toEqual(
      new Set(["everything__echo"]),
    );
    for (const history of histories)
      await Worker.runReplayHistory({ workflowBundle: await loadWorkflowBundle() }, history, sessionId);
  }, 90_000);
});

/** Every execution's history of a session, oldest first. */
async function executionHistories(client: AgentClient, sessionId: string) {
  const runs: { runId: string; start: number }[] = [];
  for await (const info of client.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` }))
    runs.push({ runId: info.runId, start: info.startTime.getTime() });
  runs.sort((a, b) => a.start - b.start);
  return Promise.all(
    runs.map(({ runId }) => client.temporal.workflow.getHandle(sessionId, runId).fetchHistory()),
  );
}

/** The run in progress a history's continue-as-new carried to the next execution (none if it carried none). */
function carriedRun(history: Awaited<ReturnType<typeof executionHistories>>[number]) {
  const continued = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes;
  const data = continued?.input?.payloads?.[0]?.data;
  if (!data) return [];
  const input = JSON.parse(Buffer.from(data).toString("utf8")) as SessionInput;
  const run = input.carried?.activeRun;
  return run ? [run] : [];
}
