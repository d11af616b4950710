import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SEARCH_ATTRIBUTES } from "../../src/dev-server/default-search-attributes.js";
import { startDevServer, type DevServer } from "../../src/dev-server/dev-server.js";
import { DevServerError } from "../../src/dev-server/dev-server-error.js";

const NAMESPACE = "lite-agent-dev-server-test";
const WORKFLOW_ID = "dev-server-test-workflow";

let dir: string;
const running: DevServer[] = [];

async function start(options: Parameters<typeof startDevServer>[0]): Promise<DevServer> {
  const server = await startDevServer(options);
  running.push(server);
  return server;
}

async function withConnection<T>(address: string, use: (connection: Connection) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address });
  try {
    return await use(connection);
  } finally {
    await connection.close();
  }
}

/** True while any process of the group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (condition()) return true;
    await sleep(100);
  }
  return condition();
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "dev-server-test-"));
});

afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe("startDevServer with a SQLite file", () => {
  let first: DevServer;
  let runId: string;

  beforeAll(async () => {
    first = await start({ dbFile: path.join(dir, "temporal.db"), namespace: NAMESPACE });
  });

  it("serves the namespace with the five custom search attributes registered", async () => {
    expect(first.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(first.namespace).toBe(NAMESPACE);
    const { namespaceInfo, attributes } = await withConnection(first.address, async (connection) => ({
      namespaceInfo: (await connection.workflowService.describeNamespace({ namespace: NAMESPACE }))
        .namespaceInfo,
      attributes: (await connection.operatorService.listSearchAttributes({ namespace: NAMESPACE }))
        .customAttributes,
    }));
    expect(namespaceInfo?.name).toBe(NAMESPACE);
    expect(Object.keys(DEFAULT_SEARCH_ATTRIBUTES).sort()).toEqual([
      "AgentCost",
      "AgentName",
      "AgentStatus",
      "AgentTokens",
      "AgentTurns",
    ]);
    // IndexedValueType: 2 = KEYWORD, 3 = INT, 4 = DOUBLE.
    expect(attributes).toMatchObject({
      AgentName: 2,
      AgentStatus: 2,
      AgentTurns: 3,
      AgentTokens: 3,
      AgentCost: 4,
    });
  });

  it("accepts and describes a workflow (no worker needed to start one)", async () => {
    const described = await withConnection(first.address, async (connection) => {
      const client = new Client({ connection, namespace: NAMESPACE });
      const handle = await client.workflow.start("noSuchWorkflow", {
        taskQueue: "nobody-polls",
        workflowId: WORKFLOW_ID,
      });
      return handle.describe();
    });
    expect(described.status.name).toBe("RUNNING");
    runId = described.runId;
  });

  it("serves the Web UI on its own port", async () => {
    expect(first.uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.uiUrl).not.toContain(first.address.split(":")[1]);
    const response = await fetch(first.uiUrl!);
    expect(response.status).toBe(200);
  });

  it("stop() ends the whole process group and frees the port", async () => {
    await first.stop();
    expect(groupAlive(first.pid)).toBe(false);
    await expect(Connection.connect({ address: first.address, connectTimeout: 1_000 })).rejects.toThrow();
    await first.stop(); // idempotent
  });

  it("keeps the namespace and the workflow when started again on the same file", async () => {
    const second = await start({ dbFile: path.join(dir, "temporal.db") });
    expect(second.namespace).toBe("default");
    const described = await withConnection(second.address, async (connection) => {
      await connection.workflowService.describeNamespace({ namespace: NAMESPACE });
      return new Client({ connection, namespace: NAMESPACE }).workflow.getHandle(WORKFLOW_ID).describe();
    });
    expect(described.runId).toBe(runId);
    await second.stop();
  });
});

describe("startDevServer failures and cleanup", () => {
  let blocker: Server;

  afterAll(() => blocker?.close());

  it("rejects with the server's own output when it exits before it is ready", async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    const error = await startDevServer({ port, headless: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DevServerError);
    expect((error as Error).message).toMatch(
      /exited before it was ready \(code 1[\s\S]*address already in use/,
    );
  });

  it("does not leave the server running when the program that started it is SIGKILLed", async () => {
    const fixture = fileURLToPath(new URL("fixtures/orphan-server.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", fixture], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const firstLine = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8")));
      child.once("exit", (code) => reject(new Error(`fixture exited with ${code}`)));
    });
    const { pid, address } = JSON.parse(firstLine) as { pid: number; address: string };
    await withConnection(address, (connection) => connection.workflowService.getSystemInfo({}));
    child.kill("SIGKILL");
    expect(await waitUntil(() => !groupAlive(pid), 20_000)).toBe(true);
  });
});
