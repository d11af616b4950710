import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, Connection } from "@temporalio/client";
import { NativeConnection } from "@temporalio/worker";
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { startDevServer, type DevServer } from "../../src/dev-server/index.js";
import { defineTool } from "../../src/kernel/tools.js";
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
  const first = await collect(reconnected.events(run.sessionId, run.runId, { fromOffset: run.offset }));
  expect(first.result.text).toBe("first run done");
  const toolResult = first.events.find((event) => event.type === "tool_result");
  expect(toolResult).toMatchObject({ result: { content: "released" } });

  const second = await reconnected.send("patient", "and again", { sessionId: run.sessionId });
  expect(second.text).toBe("second run done");
  expect((await reconnected.describe(run.sessionId)).messageCount).toBe(6);

  worker.shutdown();
  await running;
  await workerConnection.close();
}, 120_000);
