import { CreateBucketCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { deleteSessionBlobs } from "../../src/storage/delete-session-blobs.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { startMotoServer, type MotoServer } from "../support/moto-server.js";
import { connectTestClient, startTestWorker } from "../support/test-worker.js";
import { captureWorkerLog, settledWorkerLog } from "../support/worker-log.js";

// Every warning of the worker, core included (where the SDK warns about payload sizes), kept to check.
const workerLog = captureWorkerLog();

const MB = 1024 * 1024;
const BUCKET = "agent-payloads";
const PREFIX = "e2e";
const SETTINGS = {
  LITE_AGENT_STORAGE: "s3",
  LITE_AGENT_S3_BUCKET: BUCKET,
  LITE_AGENT_S3_PREFIX: PREFIX,
  AWS_ACCESS_KEY_ID: "test",
  AWS_SECRET_ACCESS_KEY: "test",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
};

const dump = defineTool({
  name: "dump",
  description: "returns a large report",
  schema: z.object({}),
  execute: () => "d".repeat(3 * MB),
});
/** Calls `dump` for "the big report", then reports the size of the last message it was given. */
const provider = fakeProvider(
  [
    (request) => {
      const last = request.messages.at(-1);
      const size = JSON.stringify(last?.content ?? "").length;
      if (size < 1000 && JSON.stringify(last?.content).includes("big report"))
        return toolCallTurn([{ id: `d-${request.messages.length}`, name: "dump", input: {} }]);
      return textTurn(`${size} chars`);
    },
  ],
  { onExhausted: "repeat-last" },
);
const agent = defineAgent({ name: "bulky-s3", model: "scripted", tools: [dump] });

let moto: MotoServer;
let s3: S3Client;
let client: AgentClient;
let stopWorker: () => Promise<void>;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  moto = await startMotoServer((line) => console.error(line));
  for (const [name, value] of Object.entries({ ...SETTINGS, LITE_AGENT_S3_ENDPOINT: moto.endpoint })) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  s3 = new S3Client({ endpoint: moto.endpoint, region: "us-east-1", forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  // Neither side is given a storage option: both read LITE_AGENT_STORAGE=s3 and the bucket from the environment.
  const taskQueue = `large-s3-${Math.random().toString(36).slice(2, 10)}`;
  const worker = await startTestWorker({ agents: [agent], providers: { scripted: provider }, taskQueue });
  stopWorker = worker.stop;
  client = await connectTestClient(taskQueue);
}, 360_000);

afterAll(async () => {
  await client?.close();
  await stopWorker?.();
  s3?.destroy();
  await moto?.stop();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function sessionObjects(sessionId: string): Promise<string[]> {
  const listed = await s3.send(
    new ListObjectsV2Command({
      Bucket: BUCKET,
      Prefix: `${PREFIX}/${inject("temporalNamespace")}/sessions/${sessionId}/`,
    }),
  );
  return (listed.Contents ?? []).map((object) => object.Key!);
}

it("with LITE_AGENT_STORAGE=s3, a 3 MB tool result and a 3 MB prompt travel through the bucket", async () => {
  const sessionId = `s3-session-${Math.random().toString(36).slice(2, 10)}`;
  const first = await client.send("bulky-s3", "read the big report", { sessionId });
  expect(Number.parseInt(first.text)).toBeGreaterThan(3 * MB);
  const second = await client.send("bulky-s3", `summarise ${"p".repeat(3 * MB)}`, { sessionId });
  expect(Number.parseInt(second.text)).toBeGreaterThan(3 * MB);
  expect(
    (await settledWorkerLog(workerLog)).filter((line) => /payload|size|limit|exceed/i.test(line)),
  ).toEqual([]);

  const objects = await sessionObjects(sessionId);
  expect(objects.length).toBeGreaterThan(1);
  const deleted = await deleteSessionBlobs(sessionId, { namespace: inject("temporalNamespace") });
  expect(deleted.deleted).toEqual([
    { driver: "lite-agent-s3", location: `s3://${BUCKET}/${PREFIX}`, count: objects.length },
  ]);
  expect(await sessionObjects(sessionId)).toEqual([]);
}, 120_000);
