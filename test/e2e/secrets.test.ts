import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DefaultLogger, NativeConnection, Runtime } from "@temporalio/worker";
import { afterEach, expect, inject, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { openaiProvider } from "../../src/providers/openai-provider.js";
import { startOpenAIServer, type OpenAIServer } from "../../src/testing/openai-server.js";
import { createWorker } from "../../src/worker.js";
import { collect } from "../support/collect.js";
import { runCliInProcess } from "../support/cli-in-process.js";
import {
  connectTestClient,
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
} from "../support/test-worker.js";
import { settledWorkerLog } from "../support/worker-log.js";

/** Every warning the worker logs (activity failures among them), with its errors' messages and stacks written out. */
function captureWorkerLog(): string[] {
  const lines: string[] = [];
  const written = (_key: string, value: unknown) =>
    value instanceof Error ? { message: value.message, stack: value.stack, cause: value.cause } : value;
  Runtime.install({
    logger: new DefaultLogger("WARN", (entry) => {
      lines.push(`${entry.level} ${entry.message} ${JSON.stringify(entry.meta ?? {}, written)}`);
    }),
  });
  return lines;
}

const workerLog = captureWorkerLog();

/** The provider's key (not in the `sk-` shape: it is scrubbed because the provider was configured with it). */
const API_KEY = "local-provider-key-0123456789";
/** A value the user lists in `createWorker({ secrets })`. */
const USER_SECRET = "user-listed-secret-9876";

let openai: OpenAIServer | undefined;
afterEach(async () => {
  await openai?.close();
});

it("provider errors and tool errors echoing secrets reach history and events scrubbed", async () => {
  openai = await startOpenAIServer({
    apiKey: API_KEY,
    responses: [
      { toolCalls: [{ id: "t1", name: "fetch_page", arguments: { url: "https://example.test" } }] },
      {
        status: 400,
        error: {
          message: `Invalid request for key ${API_KEY}: header Authorization: Bearer ${API_KEY} was refused`,
          code: "invalid_request",
        },
      },
    ],
  });
  const fetchPage = defineTool({
    name: "fetch_page",
    description: "fetches a page",
    schema: z.object({ url: z.string() }),
    execute: ({ url }) => {
      throw new Error(`GET ${url} with token ${USER_SECRET} failed (Bearer ${USER_SECRET})`);
    },
  });
  const agent = defineAgent({ name: "leaky", model: "local-model", tools: [fetchPage] });
  const taskQueue = uniqueTaskQueue("secrets");
  const connection = await NativeConnection.connect({ address: temporalAddress() });
  const worker = await createWorker({
    agents: [agent],
    providers: { "*": openaiProvider({ baseURL: openai.baseURL, apiKey: API_KEY }) },
    secrets: [USER_SECRET],
    taskQueue,
    connection,
    namespace: inject("temporalNamespace"),
  });
  const running = worker.run();
  try {
    const client = await connectTestClient(taskQueue);
    const started = await client.start("leaky", "read the page");
    const { events, result } = await collect(
      client.session(started.sessionId).events(started.runId, { fromOffset: started.offset }),
    );
    expect(result.stopReason).toBe("error");
    const history = JSON.stringify(await client.session(started.sessionId).history());
    const published = JSON.stringify(events);
    for (const text of [history, published]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(USER_SECRET);
    }
    // What was recorded still says what happened.
    expect(history).toContain("Invalid request for key [redacted]: header Authorization: Bearer [redacted]");
    const toolResult = events.find((event) => event.type === "tool_result");
    expect(toolResult).toMatchObject({
      result: {
        content: "Error: GET https://example.test with token [redacted] failed (Bearer [redacted])",
        isError: true,
      },
    });
    const error = events.find((event) => event.type === "error");
    expect(error?.type === "error" && error.error.message).toContain("Invalid request for key [redacted]");
    // The provider itself was given the real key.
    expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
  }
}, 60_000);

/** The gateway's key, from `OPENAI_API_KEY` only (not in the `sk-` shape: scrubbed by value, not by its shape). */
const GATEWAY_KEY = "gateway-key-9f8e7d6c5b4a";

/** A string that may be base64 (payload data in a history's JSON form). */
const BASE64 = /^[A-Za-z0-9+/]{16,}={0,2}$/;

/** A gateway answer echoing the request's `Authorization` header (`Bearer <key>`). */
const echoed = (request: { headers: Record<string, string> }) => request.headers.authorization ?? "";

/** Every text in a value, payload data read as UTF-8 (raw bytes, or base64 in JSON): whatever a history's encoding. */
function allText(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === "string")
    return BASE64.test(value) ? `${value}\n${Buffer.from(value, "base64").toString("utf8")}` : value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  if (typeof value !== "object" || value === null || seen.has(value)) return "";
  seen.add(value);
  return Object.values(value)
    .map((item) => allText(item, seen))
    .join("\n");
}

/** Every stored blob under a folder, as text. */
function blobsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), "utf8"));
}

it("a gateway echoing the key into text, reasoning, tool arguments and errors: the key lands nowhere", async () => {
  const storageDir = mkdtempSync(path.join(tmpdir(), "secrets-e2e-"));
  delete process.env.LITE_AGENT_STORAGE;
  process.env.LITE_AGENT_STORAGE_DIR = storageDir;
  process.env.OPENAI_API_KEY = GATEWAY_KEY;
  openai = await startOpenAIServer({
    apiKey: GATEWAY_KEY,
    responses: [
      // (d) A 500 echoing the key, retried; then (a) text and reasoning, (b) a tool call's arguments, streamed slowly.
      (request) => ({ status: 500, error: { message: `upstream refused ${echoed(request)}` } }),
      (request) => ({
        reasoning: `the header is ${echoed(request)}`,
        text: `Your header: ${echoed(request)}.`,
        toolCalls: [{ id: "e1", name: "echo_auth", arguments: { auth: echoed(request) } }],
        delayMs: 20,
      }),
      // A final answer large enough to be stored as a blob, echoing the key at its end.
      (request) => ({ text: `${"x".repeat(200_000)} again ${echoed(request)}`, chunkSize: 65_536 }),
      // (c) An error body echoing the key ends the second run.
      (request) => ({ status: 400, error: { message: `bad request with ${echoed(request)}` } }),
    ],
  });
  const echoAuth = defineTool({
    name: "echo_auth",
    description: "echoes a header",
    schema: z.object({ auth: z.string() }),
    // What the tool was given, and the key it reads itself: both would land in its result.
    execute: ({ auth }) => `given ${auth}; env ${process.env.OPENAI_API_KEY ?? ""}`,
  });
  const agent = defineAgent({ name: "echoed", model: "gateway-model", tools: [echoAuth] });
  const taskQueue = uniqueTaskQueue("secrets-echo");
  const worker = await startTestWorker({
    agents: [agent],
    providers: { "*": openaiProvider({ baseURL: openai.baseURL }) },
    taskQueue,
  });
  const client = await connectTestClient(taskQueue);
  try {
    const started = await client.start("echoed", "show me the header");
    const session = client.session(started.sessionId);
    const first = await collect(session.events(started.runId, { fromOffset: started.offset }));
    expect(first.result.stopReason).toBe("stop");
    const second = await client.start("echoed", "again", { sessionId: started.sessionId });
    const failed = await collect(session.events(second.runId, { fromOffset: second.offset }));
    expect(failed.result.stopReason).toBe("error");
    // The gateway was given the real key every time (the 500 was retried).
    expect(openai.requests.filter((request) => request.path.includes("chat"))).toHaveLength(4);

    const raw = allText(await client.temporal.workflow.getHandle(started.sessionId).fetchHistory());
    const events = JSON.stringify([...first.events, ...failed.events]);
    const transcript = JSON.stringify(await session.transcript());
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_NAMESPACE: inject("temporalNamespace"),
      LITE_AGENT_TASK_QUEUE: taskQueue,
      LITE_AGENT_STORAGE_DIR: storageDir,
    };
    const printed = [];
    for (const argv of [
      ["show", started.sessionId, "--events", "50"],
      ["history", started.sessionId],
      ["transcript", started.sessionId],
    ]) {
      const run = await runCliInProcess(argv, env);
      expect(run.code, run.stderr).toBe(0);
      // `history` prints Temporal's JSON form, payload data in base64: read as the raw history is.
      printed.push(argv[0] === "history" ? allText(JSON.parse(run.stdout)) : run.stdout, run.stderr);
    }
    const blobs = blobsUnder(storageDir);
    expect(blobs.length).toBeGreaterThan(0);
    const log = (await settledWorkerLog(workerLog)).join("\n");
    const places = { raw, events, transcript, cli: printed.join("\n"), blobs: blobs.join("\n"), log };
    for (const [place, text] of Object.entries(places)) expect.soft(text, place).not.toContain(GATEWAY_KEY);

    // [redacted] stands where the key was: text, reasoning, tool input and result, both error bodies, the blob.
    expect(events).toContain("Your header: Bearer [redacted].");
    expect(events).toContain("the header is Bearer [redacted]");
    expect(events).toContain('"auth":"Bearer [redacted]"');
    expect(events).toContain("given Bearer [redacted]; env [redacted]");
    expect(events).toContain("bad request with Bearer [redacted]");
    expect(raw).toContain("upstream refused Bearer [redacted]");
    expect(blobs.join("\n")).toContain("again Bearer [redacted]");
    expect(transcript).toContain("Your header: Bearer [redacted].");
    for (const output of printed.filter((_, i) => i % 2 === 0)) expect(output).toContain("Bearer [redacted]");
    // Live output (heartbeats) was scrubbed too, piece by piece: its deltas add up to the scrubbed text.
    const deltas = first.events.flatMap((event) => (event.type === "text_delta" ? [event.text] : []));
    expect(deltas.join("")).toContain("Your header: Bearer [redacted].");
  } finally {
    delete process.env.OPENAI_API_KEY;
    await client.close();
    await worker.stop();
  }
}, 90_000);
