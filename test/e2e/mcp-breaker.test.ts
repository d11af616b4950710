import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultPayloadConverter } from "@temporalio/common";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import type { ListMcpToolsOutput } from "../../src/contract/activity-types.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { fakeProvider, type FakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { eventsOf, timestampMs } from "../replay/history-events.js";
import type { History } from "../replay/history-files.js";
import {
  garbageServer,
  starts,
  startSilentServer,
  type SilentServer,
} from "../support/broken-mcp-servers.js";
import { runCliInProcess } from "../support/cli-in-process.js";
import { everythingServer } from "../support/mcp-servers.js";
import {
  startTestWorker,
  temporalAddress,
  testClient,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-breaker-"));
const garbageStarts = join(dir, "garbage.starts");
/** The broken servers' listing deadline: short, so the test is; the breaker's window is the default 30 s. */
const DEADLINE = { listTimeoutMs: 2_000 };

/** Echoes once through the working server, then answers: the same script for every run. */
function echoModel(): FakeProvider {
  return fakeProvider(
    [
      (request) => {
        // The last message is the echo's result: answer. Otherwise (a new run's prompt): echo.
        const last = request.messages.at(-1)!;
        const answered =
          Array.isArray(last.content) && last.content.some((block) => block.type === "tool_result");
        return answered
          ? textTurn("done")
          : toolCallTurn([
              { id: `e${request.messages.length}`, name: "everything__echo", input: { message: "hi" } },
            ]);
      },
    ],
    { onExhausted: "repeat-last" },
  );
}

/** One `listMcpTools` activity of a history: its server, attempts started, recorded result and where it completed. */
interface Listing {
  server: string;
  attempts: number[];
  result?: ListMcpToolsOutput;
  completedAt?: number;
}

/** The listing activities of a history, in the order they were scheduled. */
function listings(history: History): Listing[] {
  const events = eventsOf(history);
  const byId = new Map<string, Listing>();
  for (const event of events) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== "listMcpTools") continue;
    const input = defaultPayloadConverter.fromPayload<{ server: string }>(scheduled.input!.payloads![0]!);
    byId.set(String(event.eventId), { server: input.server, attempts: [] });
  }
  events.forEach((event, index) => {
    const started = event.activityTaskStartedEventAttributes;
    if (started) byId.get(String(started.scheduledEventId))?.attempts.push(started.attempt ?? 1);
    const completed = event.activityTaskCompletedEventAttributes;
    const listing = completed && byId.get(String(completed.scheduledEventId));
    if (listing) {
      listing.result = defaultPayloadConverter.fromPayload(completed.result!.payloads![0]!);
      listing.completedAt = index;
    }
  });
  return [...byId.values()];
}

/** Index of the first event that schedules an activity of the type. */
function firstScheduled(history: History, type: string): number {
  return eventsOf(history).findIndex(
    (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === type,
  );
}

const unavailableOf = (events: AgentEvent[]) =>
  events.filter((event) => event.type === "diagnostic" && event.code === "mcp_server_unavailable");

describe("a broken MCP server fails small: one timeout per worker per breaker window", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  let silent: SilentServer;
  const models = { garbage: echoModel(), silent: echoModel() };
  const taskQueue = uniqueTaskQueue("mcp-breaker");

  beforeAll(async () => {
    silent = await startSilentServer();
    const agents = [
      defineAgent({
        name: "mcp-garbage",
        model: "garbage",
        mcpServers: {
          broken: garbageServer(garbageStarts, DEADLINE),
          everything: everythingServer({ allow: ["echo"] }),
        },
      }),
      defineAgent({
        name: "mcp-silent",
        model: "silent",
        mcpServers: { broken: silent.config(DEADLINE), everything: everythingServer({ allow: ["echo"] }) },
      }),
    ];
    worker = await startTestWorker({ taskQueue, agents, providers: models });
    client = await testClient(taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
    await silent?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const kind of ["garbage", "silent"] as const) {
    it(`${kind}: the first run pays one deadline and goes on with the other server; the next pays none`, async () => {
      const attemptsMade = () => (kind === "garbage" ? starts(garbageStarts) : silent.initializes());
      const model = models[kind];
      const sessionId = `mcp-breaker-${kind}-${Date.now()}`;
      const first: AgentEvent[] = [];
      for await (const event of client.run(`mcp-${kind}`, "go", { sessionId })) first.push(event);
      expect(first.at(-1)).toMatchObject({ type: "done", reason: "stop" });
      expect(model.requests[0]!.tools?.map((tool) => tool.name)).toEqual(["everything__echo"]);
      expect(unavailableOf(first)).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(
            /MCP server 'broken' are not available to this run: unavailable \(breaker open until \S+Z, last error: .*timeout after 2 s: no answer to initialize/,
          ),
        }),
      ]);
      expect(attemptsMade()).toBe(1);

      const history = await client.session(sessionId).workflow.fetchHistory();
      const listed = listings(history);
      // One attempt per server (no Temporal retry), the broken one recorded as unavailable with its breaker.
      expect(listed.map(({ server, attempts }) => [server, attempts])).toEqual([
        ["broken", [1]],
        ["everything", [1]],
      ]);
      const broken = listed[0]!.result;
      expect(broken).toEqual({
        unavailable: expect.objectContaining({ server: "broken", breaker: "open", failures: 1 }),
      });
      expect(listed[1]!.result).toEqual({ tools: [expect.objectContaining({ name: "everything__echo" })] });
      // The first model call is scheduled once both listings completed: the run waited one deadline, no more.
      const firstModel = firstScheduled(history, "callModel");
      for (const listing of listed) expect(listing.completedAt).toBeLessThan(firstModel);
      const at = (index: number) => timestampMs(eventsOf(history)[index]!.eventTime);
      console.log(
        `${kind}: first model call scheduled ${at(firstModel) - at(0)} ms after the session started`,
      );

      // A second run inside the window: the broken server is not tried again (no new start or initialize), and the
      // run records the breaker as it stands.
      const retryAt = (broken as { unavailable: { retryAt: number } }).unavailable.retryAt;
      const second: AgentEvent[] = [];
      for await (const event of client.run(`mcp-${kind}`, "again", { sessionId })) second.push(event);
      expect(second.at(-1)).toMatchObject({ type: "done", reason: "stop" });
      expect(unavailableOf(second)).toHaveLength(1);
      expect(attemptsMade()).toBe(1);
      const again = listings(await client.session(sessionId).workflow.fetchHistory());
      expect(again.map(({ server, attempts }) => [server, attempts])).toEqual([
        ["broken", [1]],
        ["everything", [1]],
        ["broken", [1]],
        ["everything", [1]],
      ]);
      expect(again[2]!.result).toEqual({
        unavailable: expect.objectContaining({ breaker: "open", retryAt, failures: 1 }),
      });
      expect(model.requests.at(-2)!.tools?.map((tool) => tool.name)).toEqual(["everything__echo"]);

      // The breaker in the status, the current details and show.
      const status = await client.session(sessionId).describe();
      expect(status.mcpUnavailable).toEqual([
        {
          server: "broken",
          breaker: "open",
          retryAt,
          failures: 1,
          lastError: expect.stringContaining("timeout after 2 s"),
        },
      ]);
      const metadata = await client
        .session(sessionId)
        .workflow.query<{ currentDetails?: string }>("__temporal_workflow_metadata");
      expect(metadata.currentDetails).toMatch(
        /### MCP servers unavailable to the last run \(1\)\n- \*\*broken\*\* unavailable \(breaker open until \S+Z, last error: .*timeout after 2 s/,
      );
      const show = await runCliInProcess(["show", sessionId], {
        TEMPORAL_ADDRESS: temporalAddress(),
        TEMPORAL_NAMESPACE: inject("temporalNamespace"),
        LITE_AGENT_TASK_QUEUE: taskQueue,
      });
      expect(show.code).toBe(0);
      expect(show.stdout).toMatch(
        /MCP {6}broken unavailable \(breaker open, retry in \d+s, last error: .*timeout after 2 s/,
      );
    }, 60_000);
  }
});
