import { NativeConnection } from "@temporalio/worker";
import { afterEach, expect, inject, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { openaiProvider } from "../../src/providers/openai-provider.js";
import { startOpenAIServer, type OpenAIServer } from "../../src/testing/openai-server.js";
import { createWorker } from "../../src/worker.js";
import { collect } from "../support/collect.js";
import { temporalAddress, testClient, uniqueTaskQueue } from "../support/temporal.js";

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
    const client = await testClient(taskQueue);
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
