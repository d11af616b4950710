import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import proto from "@temporalio/proto";
import { NativeConnection } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { createKeyRing, type EncryptionKeyRing } from "../../src/encryption/index.js";
import { runCliInProcess } from "../support/cli-in-process.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { createExternalStorage } from "../../src/storage/payload-storage.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { createWorker, type AgentWorker } from "../../src/worker.js";

const MARKER = `customer-secret-${randomBytes(6).toString("hex")}`;
const KB = 1024;

/** Returns the marker, padded to `kilobytes` so a large result goes to external storage. */
const lookup = defineTool({
  name: "lookup",
  description: "looks up the customer's record",
  schema: z.object({ kilobytes: z.number() }),
  execute: ({ kilobytes }) => `${MARKER} ${"x".repeat(kilobytes * KB)}`,
});

/** Calls `lookup`, then repeats the marker it found in the tool result: the answer proves the model read it. */
const provider = fakeProvider(
  [
    (request) => {
      const last = request.messages.at(-1);
      const seen = JSON.stringify(last?.content ?? "");
      // Tool results come back as a user message of tool_result blocks.
      if (!seen.includes("tool_result")) {
        const kilobytes = Number(/(\d+) KB/.exec(seen)?.[1] ?? 0);
        // The call id carries the marker too: ids the server keeps in plain text (activity ids) must not show it.
        const id = `l-${request.messages.length}-${MARKER}`;
        return toolCallTurn([{ id, name: "lookup", input: { kilobytes } }]);
      }
      return textTurn(`the record says ${/customer-secret-[0-9a-f]+/.exec(seen)?.[0] ?? "nothing"}`);
    },
  ],
  { onExhausted: "repeat-last" },
);

const clerk = defineAgent({
  name: "clerk",
  model: "scripted",
  tools: [lookup],
  system: "You look things up.",
});
const namespace = () => inject("temporalNamespace");
const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
const key = () => new Uint8Array(randomBytes(32));

describe("payload encryption end to end (AES-256-GCM codec in worker and client)", () => {
  const storageDir = mkdtempSync(path.join(tmpdir(), "encrypted-payloads-"));
  const storage = createExternalStorage({ kind: "fs", dir: storageDir, threshold: 64 * KB });
  const taskQueue = unique("encrypted");
  const keys: EncryptionKeyRing = createKeyRing([["k1", key()]], "k1");
  let workerConnection: NativeConnection;
  let worker: AgentWorker;
  let running: Promise<void>;
  let client: AgentClient;

  beforeAll(async () => {
    workerConnection = await NativeConnection.connect({ address: inject("temporalAddress") });
    worker = await createWorker({
      agents: [clerk],
      providers: { scripted: provider },
      taskQueue,
      connection: workerConnection,
      namespace: namespace(),
      storage,
      encryption: keys,
    });
    running = worker.run();
    client = await AgentClient.connect({
      address: inject("temporalAddress"),
      namespace: namespace(),
      taskQueue,
      storage,
      encryption: keys,
    });
  });
  afterAll(async () => {
    await client?.close();
    if (worker?.getState() === "RUNNING") worker.shutdown();
    await running;
    await workerConnection?.close();
  });

  it("the encrypted client reads the tool result; the raw history holds no plain text of it, ids neither", async () => {
    const sessionId = unique("enc-session");
    const result = await client.send("clerk", "look up the record (0 KB)", { sessionId });
    expect(result.text).toBe(`the record says ${MARKER}`);

    const raw = await rawHistoryBytes(sessionId);
    // Activity types stay plain (we are looking at the right history); the tool's name in the activity summary not.
    expect(raw.includes("executeTool")).toBe(true);
    expect(raw.includes("lookup")).toBe(false);
    expect(raw.includes(MARKER)).toBe(false);
    expect(raw.includes("look up the record")).toBe(false);
    expect(raw.includes("binary/encrypted")).toBe(true);
    // Plain payloads are left only where the server must read them: search attributes, for visibility queries.
    const plainPaths = await plainPayloadPaths(sessionId);
    expect(plainPaths.some((where) => where.includes("searchAttributes"))).toBe(true);
    expect(plainPaths.filter((where) => !where.includes("searchAttributes"))).toEqual([]);
  }, 60_000);

  it("a client without the key still lists the encrypted sessions (memos it cannot read do not break the listing)", async () => {
    const sessionId = unique("enc-listed");
    await client.send("clerk", "look up the record (0 KB)", { sessionId });
    const plain = await AgentClient.connect({
      address: inject("temporalAddress"),
      namespace: namespace(),
      taskQueue,
      storage,
      encryption: false,
    });
    try {
      await expect
        .poll(
          async () => {
            const ids: string[] = [];
            for await (const session of plain.list({ query: `WorkflowId = "${sessionId}"` }))
              ids.push(session.sessionId);
            return ids;
          },
          { timeout: 15_000, interval: 250 },
        )
        .toEqual([sessionId]);
      // The SDK's own listing decodes each memo and fails on the first it cannot (what list() used to do).
      const sdkListing = (async () => {
        for await (const info of plain.temporal.workflow.list({ query: `WorkflowId = "${sessionId}"` }))
          void info;
      })();
      await expect(sdkListing).rejects.toThrow(/binary\/encrypted/);
    } finally {
      await plain.close();
    }
  }, 60_000);

  it("the CLI without keys names the session's key id and the variable that supplies keys", async () => {
    const sessionId = unique("enc-cli");
    await client.send("clerk", "look up the record (0 KB)", { sessionId });
    const global = [
      "--address",
      inject("temporalAddress"),
      "--namespace",
      namespace(),
      "--task-queue",
      taskQueue,
    ];
    // In-process: this process has no LITE_AGENT_ENCRYPTION_KEYS, so the CLI has no keys.
    const shown = await runCliInProcess(["show", sessionId, ...global]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toMatch(/encrypted with key 'k1' and no encryption keys are configured/);
    expect(shown.stderr).toContain("set LITE_AGENT_ENCRYPTION_KEYS ('k1=<base64 key>'");
    expect(shown.stderr).not.toContain("Unknown encoding");
    // With keys, but not that one: the codec's own error, which names both.
    const saved = process.env.LITE_AGENT_ENCRYPTION_KEYS;
    process.env.LITE_AGENT_ENCRYPTION_KEYS = `k9=${Buffer.from(key()).toString("base64")}`;
    try {
      const other = await runCliInProcess(["show", sessionId, ...global]);
      expect(other.code).toBe(1);
      expect(other.stderr).toMatch(
        /encrypted with key 'k1', which this process does not have \(it has: k9\)/,
      );
    } finally {
      if (saved === undefined) delete process.env.LITE_AGENT_ENCRYPTION_KEYS;
      else process.env.LITE_AGENT_ENCRYPTION_KEYS = saved;
    }
  }, 60_000);

  it("with external storage the stored blobs are ciphertext too (encrypt before storing)", async () => {
    const sessionId = unique("enc-stored");
    const result = await client.send("clerk", "look up the record (200 KB)", { sessionId });
    expect(result.text).toBe(`the record says ${MARKER}`);

    const folder = path.join(storageDir, namespace(), "sessions", sessionId);
    const blobs = readdirSync(folder).map((name) => readFileSync(path.join(folder, name)));
    expect(blobs.length).toBeGreaterThan(0);
    expect(Math.max(...blobs.map((blob) => blob.length))).toBeGreaterThan(200 * KB);
    for (const blob of blobs) {
      expect(blob.includes(MARKER)).toBe(false);
      expect(blob.includes("binary/encrypted")).toBe(true);
    }
    expect((await rawHistoryBytes(sessionId)).includes(MARKER)).toBe(false);
  }, 60_000);

  it("key rotation: a worker and client with a new current key continue a session written under the old one", async () => {
    const queue = unique("rotation");
    const sessionId = unique("enc-rotated");
    const before = await startPair(queue, keys);
    try {
      expect((await before.client.send("clerk", "look up (0 KB)", { sessionId })).text).toContain(MARKER);
    } finally {
      await before.stop();
    }
    // The old key stays in the ring so the history written under it replays; new payloads use k2.
    const rotated = createKeyRing([...keys.keys, ["k2", key()]], "k2");
    const after = await startPair(queue, rotated);
    try {
      expect((await after.client.send("clerk", "look up again (0 KB)", { sessionId })).text).toBe(
        `the record says ${MARKER}`,
      );
    } finally {
      await after.stop();
    }
    expect(await keyIdsInHistory(sessionId)).toEqual(new Set(["k1", "k2"]));
  }, 90_000);
});

/** A worker and a client on `taskQueue` with the given keys (no external storage). */
async function startPair(taskQueue: string, encryption: EncryptionKeyRing) {
  const connection = await NativeConnection.connect({ address: inject("temporalAddress") });
  const worker = await createWorker({
    agents: [clerk],
    providers: { scripted: provider },
    taskQueue,
    connection,
    namespace: namespace(),
    storage: false,
    encryption,
  });
  const running = worker.run();
  const client = await AgentClient.connect({
    address: inject("temporalAddress"),
    namespace: namespace(),
    taskQueue,
    storage: false,
    encryption,
  });
  return {
    client,
    async stop() {
      await client.close();
      if (worker.getState() === "RUNNING") worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** The session's whole raw history as protobuf bytes (read without any data converter: what the server stores). */
async function rawHistoryBytes(sessionId: string): Promise<Buffer> {
  const connection = await Connection.connect({ address: inject("temporalAddress") });
  try {
    const raw = new Client({ connection, namespace: namespace() });
    const chunks: Buffer[] = [];
    let nextPageToken: Uint8Array | undefined;
    do {
      const page = await raw.workflowService.getWorkflowExecutionHistory({
        namespace: namespace(),
        execution: { workflowId: sessionId },
        nextPageToken,
      });
      chunks.push(Buffer.from(proto.temporal.api.history.v1.History.encode(page.history ?? {}).finish()));
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
    return Buffer.concat(chunks);
  } finally {
    await connection.close();
  }
}

/** The key ids named by the encrypted payloads of a session's raw history. */
async function keyIdsInHistory(sessionId: string): Promise<Set<string>> {
  const history = proto.temporal.api.history.v1.History.decode(await rawHistoryBytes(sessionId));
  const ids = new Set<string>();
  collectKeyIds(history.toJSON(), ids);
  return ids;
}

/** Where a session's raw history holds payloads that are not encrypted (paths like `events.3....metadata`). */
async function plainPayloadPaths(sessionId: string): Promise<string[]> {
  const history = proto.temporal.api.history.v1.History.decode(await rawHistoryBytes(sessionId));
  const found: string[] = [];
  const walk = (value: unknown, where: string): void => {
    if (value === null || typeof value !== "object") return;
    const encoding = (value as { metadata?: Record<string, string> }).metadata?.encoding;
    if (typeof encoding === "string" && Buffer.from(encoding, "base64").toString() !== "binary/encrypted")
      found.push(where);
    for (const [name, child] of Object.entries(value)) walk(child, `${where}.${name}`);
  };
  walk(history.toJSON(), "history");
  return found;
}

/** Walks a history in its JSON form (payload metadata values in base64) for `encryption-key-id` entries. */
function collectKeyIds(value: unknown, ids: Set<string>): void {
  if (value === null || typeof value !== "object") return;
  const metadata = (value as { metadata?: Record<string, string> }).metadata;
  const id = metadata?.["encryption-key-id"];
  if (typeof id === "string") ids.add(Buffer.from(id, "base64").toString("utf8"));
  for (const child of Object.values(value)) collectKeyIds(child, ids);
}
