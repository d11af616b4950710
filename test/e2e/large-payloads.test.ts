import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { z } from "zod";
import { type AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { AgentEvent } from "../../src/kernel/vocabulary/events.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { replaySessionHistory } from "../../src/worker/replay-history.js";
import { deleteSessionBlobs } from "../../src/storage/delete-session-blobs.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { connectTestClient, startTestWorker } from "../support/test-worker.js";
import { captureWorkerLog, settledWorkerLog } from "../support/worker-log.js";

// Every warning of the worker, core included (where the SDK warns about payload sizes), kept to check.
const workerLog = captureWorkerLog({ withMeta: true });

const MB = 1024 * 1024;
const PAYLOAD_WARNING = /payload|blob|size|limit|exceed/i;

const dump = defineTool({
  name: "dump",
  description: "returns a large report",
  schema: z.object({ megabytes: z.number() }),
  execute: ({ megabytes }) => `report:${"r".repeat(megabytes * MB)}`,
});

/**
 * A model that calls `dump` when asked for "the big report", and otherwise says how large the last message it was
 * given is: so the answer proves the whole tool result (or prompt) reached the model.
 */
const sizeReporter = (megabytes: number) =>
  fakeProvider(
    [
      (request) => {
        const last = request.messages.at(-1);
        const size = JSON.stringify(last?.content ?? "").length;
        if (last?.role === "user" && size < 1000 && JSON.stringify(last.content).includes("big report"))
          return toolCallTurn([{ id: `d-${request.messages.length}`, name: "dump", input: { megabytes } }]);
        const kind =
          Array.isArray(last?.content) && last.content.some((block) => block.type === "tool_result");
        return textTurn(`last message: ${kind ? "tool_result" : last?.role} ${size} chars`);
      },
    ],
    { onExhausted: "repeat-last" },
  );

/** The size the model reported. */
const reported = (text: string) => Number(/ (\d+) chars$/.exec(text)?.[1] ?? 0);

const bulky = defineAgent({ name: "bulky", model: "scripted", tools: [dump], system: "You read reports." });

function uniqueQueue(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

function startWorker(taskQueue: string, megabytes: number, storage?: false) {
  return startTestWorker({
    agents: [bulky],
    providers: { scripted: sizeReporter(megabytes) },
    taskQueue,
    storage,
  });
}

async function collectRun(events: AsyncGenerator<AgentEvent, unknown>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for (;;) {
    const next = await events.next();
    if (next.done) return seen;
    seen.push(next.value);
  }
}

describe("large payloads travel by reference (external storage, filesystem driver by default)", () => {
  const storageDir = mkdtempSync(path.join(tmpdir(), "payloads-e2e-"));
  const taskQueue = uniqueQueue("large");
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let client: AgentClient;

  beforeAll(async () => {
    // No storage option anywhere: worker and client take the environment's, whose default driver is `fs`.
    delete process.env.LITE_AGENT_STORAGE;
    process.env.LITE_AGENT_STORAGE_DIR = storageDir;
    worker = await startWorker(taskQueue, 5);
    client = await connectTestClient(taskQueue);
  });
  afterAll(async () => {
    await client?.close();
    await worker?.stop();
  });

  it("a tool returns 5 MB and a run gets a 3 MB prompt: both complete, the model sees all of both, the client gets the results, no size warning", async () => {
    const sessionId = uniqueQueue("big-session");
    const events = await collectRun(client.run("bulky", "read the big report", { sessionId }));
    // The client sees the tool's result event whole (read by reference through the storage)...
    const toolResult = events.find((event) => event.type === "tool_result");
    expect(
      toolResult?.type === "tool_result" && toolResult.result.content === `report:${"r".repeat(5 * MB)}`,
    ).toBe(true);
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    // ...and the model got all 5 MB of it: the next request travelled through the storage too.
    const firstText = done?.type === "done" ? done.result.text : "";
    expect(firstText).toMatch(/^last message: tool_result /);
    expect(reported(firstText)).toBeGreaterThan(5 * MB);

    const prompt = `summarise: ${"p".repeat(3 * MB)}`;
    const second = await client.send("bulky", prompt, { sessionId });
    expect(second.stopReason).toBe("stop");
    expect(second.text).toMatch(/^last message: user /);
    expect(reported(second.text)).toBeGreaterThan(3 * MB);

    // An exported history keeps the references (it stays small); replaying it reads the payloads back.
    const exported = await client.session(sessionId).history();
    expect(JSON.stringify(exported).length).toBeLessThan(1 * MB);
    await replaySessionHistory(exported, sessionId);

    expect((await settledWorkerLog(workerLog)).filter((line) => PAYLOAD_WARNING.test(line))).toEqual([]);

    // The blobs are files in the session's folder; the history holds references an operator can read.
    const folder = path.join(storageDir, "default", "sessions", sessionId);
    expect(readdirSync(folder).length).toBeGreaterThan(0);
    const references = await referencePayloads(sessionId);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) {
      expect(reference.driverName).toBe("lite-agent-fs");
      expect(reference.claimData.key).toContain(`/sessions/${sessionId}/`);
      expect(Number(reference.claimData.bytes)).toBeGreaterThan(128 * 1024);
    }
    expect(Math.max(...references.map((reference) => Number(reference.claimData.bytes)))).toBeGreaterThan(
      5 * MB,
    );

    // The session's blobs can be deleted in one call (as an operator would once the session is closed).
    const stored = readdirSync(folder).length;
    const deleted = await deleteSessionBlobs(sessionId, { namespace: inject("temporalNamespace") });
    expect(deleted.deleted).toEqual([{ driver: "lite-agent-fs", location: storageDir, count: stored }]);
    expect(existsSync(folder)).toBe(false);
  }, 120_000);

  it("control: without storage the same worker log shows the SDK's payload-size warning (so its absence above means something)", async () => {
    const queue = uniqueQueue("inline");
    const inline = await startWorker(queue, 0.7, false);
    const inlineClient = await connectTestClient(queue, false);
    try {
      const before = workerLog.length;
      const result = await inlineClient.send("bulky", "read the big report", {
        sessionId: uniqueQueue("inline-session"),
      });
      expect(reported(result.text)).toBeGreaterThan(0.7 * MB);
      // The SDK's core forwards its log lines in batches: the warning may reach the log a moment after the run.
      await vi.waitFor(
        () =>
          expect(workerLog.slice(before).filter((line) => PAYLOAD_WARNING.test(line)).length).toBeGreaterThan(
            0,
          ),
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await inlineClient.close();
      await inline.stop();
    }
  }, 120_000);
});

type Reference = { driverName: string; claimData: Record<string, string> };
const REFERENCE_TYPE = "temporal.api.sdk.v1.ExternalStorageReference";

/** The reference payloads in a session's raw history (what the Temporal UI and `temporal workflow show` display). */
async function referencePayloads(sessionId: string): Promise<Reference[]> {
  const connection = await Connection.connect({ address: inject("temporalAddress") });
  try {
    const raw = new Client({ connection, namespace: inject("temporalNamespace") });
    const found: Reference[] = [];
    let nextPageToken: Uint8Array | undefined;
    do {
      // The raw service call: no data converter runs, so references stay references.
      const page = await raw.workflowService.getWorkflowExecutionHistory({
        namespace: inject("temporalNamespace"),
        execution: { workflowId: sessionId },
        nextPageToken,
      });
      collectReferences(page.history?.events ?? [], found);
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
    return found;
  } finally {
    await connection.close();
  }
}

function collectReferences(value: unknown, found: Reference[]): void {
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return;
  const payload = value as { metadata?: Record<string, Uint8Array>; data?: Uint8Array };
  const messageType = payload.metadata?.messageType;
  if (messageType && payload.data && new TextDecoder().decode(messageType) === REFERENCE_TYPE) {
    found.push(JSON.parse(new TextDecoder().decode(payload.data)) as Reference);
    return;
  }
  for (const child of Object.values(value)) collectReferences(child, found);
}
