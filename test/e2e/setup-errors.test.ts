import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Client, Connection } from "@temporalio/client";
import { NativeConnection } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentClient, SearchAttributesMissingError } from "../../src/client.js";
import { startDevServer, type DevServer } from "../../src/dev-server/dev-server.js";
import { createWorker } from "../../src/worker.js";
import { routingAgent, routingProviders } from "./fixtures/routing-agents.js";
import { uniqueTaskQueue } from "../support/temporal.js";

// A server that lacks the sessions' search attributes (a cluster set up by hand): workers and clients say which are
// missing and how to create them, once, instead of sessions whose every workflow task fails.

const run = promisify(execFile);
let server: DevServer;
let connection: NativeConnection;
let clientConnection: Connection;

beforeAll(async () => {
  // Only AgentName: three are missing.
  server = await startDevServer({ headless: true, searchAttributes: { AgentName: "Keyword" } });
  connection = await NativeConnection.connect({ address: server.address });
  clientConnection = await Connection.connect({ address: server.address });
}, 120_000);

afterAll(async () => {
  await clientConnection?.close();
  await connection?.close();
  await server?.stop();
});

function agentClient(taskQueue: string, options: { searchAttributes?: boolean } = {}): AgentClient {
  const temporal = new Client({ connection: clientConnection, namespace: server.namespace });
  return new AgentClient(temporal, { taskQueue, workerWaitMs: 5_000, ...options });
}

const agent = routingAgent("setup");
const workerOptions = () => ({
  agents: [agent],
  providers: routingProviders,
  connection,
  namespace: server.namespace,
  taskQueue: uniqueTaskQueue("setup"),
});

describe("a server without the search attributes", () => {
  let message = "";

  it("a worker refuses to start, naming what is missing and the commands that create it", async () => {
    const error = await createWorker(workerOptions()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchAttributesMissingError);
    message = (error as Error).message;
    expect(message).toContain("lacks the search attributes");
    expect((error as SearchAttributesMissingError).missing).toEqual([
      "AgentStatus",
      "AgentTurns",
      "AgentTokens",
    ]);
    expect(message).not.toMatch(/--name AgentName/);
    for (const [name, type] of [
      ["AgentStatus", "Keyword"],
      ["AgentTurns", "Int"],
      ["AgentTokens", "Int"],
    ])
      expect(message).toContain(
        `temporal operator search-attribute create --namespace ${server.namespace} --name ${name} --type ${type}`,
      );
  });

  it("a client refuses to start a session, with the same error, and starts no workflow", async () => {
    const taskQueue = uniqueTaskQueue("setup");
    const error = await agentClient(taskQueue)
      .start("setup", "hello", { sessionId: `setup-${taskQueue}` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchAttributesMissingError);
    expect((error as Error).message).toBe(message);
    const handle = agentClient(taskQueue).session(`setup-${taskQueue}`).workflow;
    await expect(handle.describe()).rejects.toThrow(/not found/i);
  });

  it("runs without them when both sides opt out (searchAttributes: false)", async () => {
    const options = workerOptions();
    const worker = await createWorker({ ...options, searchAttributes: false });
    const running = worker.run();
    try {
      const result = await agentClient(options.taskQueue, { searchAttributes: false }).send("setup", "plain");
      expect(result.text).toBe(`setup stamped plain in ${process.pid}`);
    } finally {
      worker.shutdown();
      await running;
    }
  });

  it("the printed commands create them; then workers and sessions start", async () => {
    const commands = message.split("\n").filter((line) => line.trim().startsWith("temporal operator"));
    expect(commands).toHaveLength(3);
    for (const command of commands) {
      const [, ...args] = command.trim().split(/\s+/);
      await run(server.binary.path, [...args, "--address", server.address]);
    }
    const options = workerOptions();
    const worker = await createWorker(options);
    const running = worker.run();
    try {
      const result = await agentClient(options.taskQueue).send("setup", "indexed");
      expect(result.text).toBe(`setup stamped indexed in ${process.pid}`);
    } finally {
      worker.shutdown();
      await running;
    }
  }, 60_000);

  it("a worker whose agent prices its model also needs AgentCost, and runs once it exists", async () => {
    const priced = {
      ...agent,
      budget: { prices: { [agent.model]: { inputPerMillion: 1, outputPerMillion: 2 } } },
    };
    const options = { ...workerOptions(), agents: [priced] };
    const error = await createWorker(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchAttributesMissingError);
    expect((error as SearchAttributesMissingError).missing).toEqual(["AgentCost"]);
    const create = (error as Error).message.split("\n").find((line) => line.includes("--name AgentCost"));
    expect(create?.trim()).toBe(
      `temporal operator search-attribute create --namespace ${server.namespace} --name AgentCost --type Double`,
    );
    const [, ...args] = create!.trim().split(/\s+/);
    await run(server.binary.path, [...args, "--address", server.address]);
    const worker = await createWorker(options);
    const running = worker.run();
    try {
      const result = await agentClient(options.taskQueue).send("setup", "priced");
      expect(result.text).toBe(`setup stamped priced in ${process.pid}`);
    } finally {
      worker.shutdown();
      await running;
    }
  }, 60_000);
});
