import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, Connection } from "@temporalio/client";
import { NativeConnection } from "@temporalio/worker";
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { AgentClient, type DurableEvent } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { startDevServer, type DevServer } from "../../src/dev-server/index.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { createWorker } from "../../src/worker.js";
import { collect } from "../support/collect.js";
import { uniqueTaskQueue } from "../support/temporal.js";

let releaseTool: () => void = () => undefined;
let toolStarted: () => void = () => undefined;
const started = new Promise<void>((resolve) => (toolStarted = resolve));
const wait = defineTool({
  name: "wait_for_release",
  description: "waits until the test releases it",
  schema: z.object({}),
  retry: "idempotent",
  execute: () => new Promise<string>((resolve) => ((releaseTool = () => resolve("released")), toolStarted())),
});
const agent = defineAgent({ name: "patient", model: "scripted", tools: [wait] });
const script = conversationScript([
  toolCallTurn([{ id: "w", name: "wait_for_release", input: {} }]),
  textTurn("first run done"),
  textTurn("second run done"),
]);

let server: DevServer | undefined;
afterAll(async () => {
  await server?.stop();
});

const progress = (message: string) => ({
  type: "diagnostic" as const,
  level: "info" as const,
  code: "step",
  message,
});
let releaseReporter: () => void = () => undefined;
let reporterWaits: () => void = () => undefined;
const reporterWaiting = new Promise<void>((resolve) => (reporterWaits = resolve));
/** Reports a step, waits until the test releases it (over a server restart), reports another. */
const reporter = defineTool({
  name: "report_and_wait",
  description: "reports its steps",
  schema: z.object({}),
  retry: "idempotent",
  execute: async (_input, ctx) => {
    ctx.emit(progress("before"));
    await new Promise<void>((resolve) => ((releaseReporter = resolve), reporterWaits()));
    ctx.emit(progress("after"));
    return "reported";
  },
});
const reporting = defineAgent({ name: "reporting", model: "scripted", tools: [reporter] });
const reportingScript = conversationScript([
  toolCallTurn([{ id: "r", name: "report_and_wait", input: {} }]),
  textTurn("reported"),
]);

/** The offsets of a reader's logged events (live output, the model's text and a tool's events, has a `deltaId`). */
function loggedOffsets(events: DurableEvent[]): number[] {
  return events.filter((event) => event.deltaId === undefined).map((event) => event.offset);
}

function toolSteps(events: DurableEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === "diagnostic" && event.code === "step" ? [event.message] : [],
  );
}

it("a restart of the dev server (file DB) in the middle of a session: the session continues", async () => {
  const dbFile = join(mkdtempSync(join(tmpdir(), "restart-")), "temporal.db");
  server = await startDevServer({ dbFile, headless: true });
  const port = Number(server.address.split(":").at(-1));
  const taskQueue = uniqueTaskQueue("restart");
  const workerConnection = await NativeConnection.connect({ address: server.address });
  const worker = await createWorker({
    agents: [agent],
    providers: { scripted: script },
    taskQueue,
    connection: workerConnection,
  });
  const running = worker.run();
  const client = new AgentClient(
    new Client({ connection: await Connection.connect({ address: server.address }) }),
    { taskQueue },
  );

  const run = await client.start("patient", "wait, then answer");
  await started;
  await server.stop();
  server = await startDevServer({ dbFile, port, headless: true });
  releaseTool();

  const reconnected = new AgentClient(
    new Client({ connection: await Connection.connect({ address: server.address }) }),
    { taskQueue },
  );
  const first = await collect(
    reconnected.session(run.sessionId).events(run.runId, { fromOffset: run.offset }),
  );
  expect(first.result.text).toBe("first run done");
  const toolResult = first.events.find((event) => event.type === "tool_result");
  expect(toolResult).toMatchObject({ result: { content: "released" } });

  const second = await reconnected.send("patient", "and again", { sessionId: run.sessionId });
  expect(second.text).toBe("second run done");
  expect((await reconnected.session(run.sessionId).describe()).messageCount).toBe(6);

  worker.shutdown();
  await running;
  await workerConnection.close();
}, 120_000);

it("a restart of the dev server in the middle of a tool call: followers get every offset and tool event once", async () => {
  await server?.stop();
  const dbFile = join(mkdtempSync(join(tmpdir(), "restart-")), "temporal.db");
  server = await startDevServer({ dbFile, headless: true });
  const port = Number(server.address.split(":").at(-1));
  const taskQueue = uniqueTaskQueue("restart-follow");
  const workerConnection = await NativeConnection.connect({ address: server.address });
  const worker = await createWorker({
    agents: [reporting],
    providers: { scripted: reportingScript },
    taskQueue,
    connection: workerConnection,
  });
  const running = worker.run();
  const client = new AgentClient(
    new Client({ connection: await Connection.connect({ address: server.address }) }),
    { taskQueue },
  );

  const run = await client.start("reporting", "report, then answer");
  // One follower reads on across the restart; another lets go once it saw the tool's first step (a client that
  // disconnects) and comes back after the restart from where it was: the last offset and the last live item seen.
  const along = collect(client.session(run.sessionId).events(run.runId, { fromOffset: run.offset }));
  const first: DurableEvent[] = [];
  for await (const event of client.session(run.sessionId).events(run.runId, { fromOffset: run.offset })) {
    first.push(event);
    if (toolSteps(first).length > 0) break;
  }
  await reporterWaiting;
  await server.stop();
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  server = await startDevServer({ dbFile, port, headless: true });
  releaseReporter();

  const reconnected = new AgentClient(
    new Client({ connection: await Connection.connect({ address: server.address }) }),
    { taskQueue },
  );
  const last = first.at(-1)!;
  const lastLive = first.findLast((event) => event.deltaId !== undefined);
  const rest = await collect(
    reconnected.session(run.sessionId).events(run.runId, {
      fromOffset: last.offset + 1,
      ...(lastLive?.deltaId ? { fromDeltaId: lastLive.deltaId } : {}),
    }),
  );
  const resumed = [...first, ...(rest.events as DurableEvent[])];
  const continued = (await along).events as DurableEvent[];
  expect(rest.result.text).toBe("reported");

  for (const [reader, events] of Object.entries({ continued, resumed })) {
    const done = events.at(-1)!;
    expect(done.type, reader).toBe("done");
    expect
      .soft(loggedOffsets(events), `${reader}: logged offsets`)
      .toEqual(Array.from({ length: done.offset + 1 - run.offset }, (_, index) => run.offset + index));
    expect.soft(toolSteps(events), `${reader}: tool events`).toEqual(["before", "after"]);
    const types = events.map((event) => event.type);
    expect(types.indexOf("diagnostic"), reader).toBeGreaterThan(types.indexOf("tool_call_start"));
    expect(types.lastIndexOf("diagnostic"), reader).toBeLessThan(types.indexOf("tool_call_end"));
  }

  worker.shutdown();
  await running;
  await workerConnection.close();
}, 120_000);
