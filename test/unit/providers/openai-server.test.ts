import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startOpenAIServer, type OpenAIServer } from "../../../src/testing/openai-server.js";

let server: OpenAIServer;
let client: OpenAI;
beforeEach(async () => {
  server = await startOpenAIServer({ apiKey: "sk-test", models: ["small", "large"] });
  client = new OpenAI({ baseURL: server.baseURL, apiKey: "sk-test", maxRetries: 0 });
});
afterEach(() => server.close());

/** POSTs a chat request with fetch and returns the raw response. */
function post(body: object): Promise<Response> {
  return fetch(`${server.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body. */
function events(text: string): string[] {
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return event.slice("data: ".length);
    });
}

const MESSAGES = [{ role: "user" as const, content: "Hi" }];

describe("startOpenAIServer wire format", () => {
  it("streams OpenAI chunks as SSE, with a final usage chunk and [DONE]", async () => {
    server.script({ text: "Hello!", chunkSize: 3, usage: { prompt: 9, completion: 2, cached: 4 } });
    const response = await post({
      model: "small",
      messages: MESSAGES,
      stream: true,
      stream_options: { include_usage: true },
    });
    const data = events(await response.text());

    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((event) => JSON.parse(event));
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.model === "small")).toBe(
      true,
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta ?? null)).toEqual([
      { role: "assistant", content: "", refusal: null },
      { content: "Hel" },
      { content: "lo!" },
      {},
      null,
    ]);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason ?? null)).toEqual([
      null,
      null,
      null,
      "stop",
      null,
    ]);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 9,
        completion_tokens: 2,
        total_tokens: 11,
        prompt_tokens_details: { cached_tokens: 4 },
      },
    });
  });

  it("sends no usage chunk when the request does not ask for it", async () => {
    server.script({ text: "Hi" });
    const data = events(await (await post({ model: "small", messages: MESSAGES, stream: true })).text());
    const chunks = data.slice(0, -1).map((event) => JSON.parse(event));

    expect(chunks.every((chunk) => chunk.choices.length === 1 && !("usage" in chunk))).toBe(true);
  });

  it("streams each tool call as an opening delta with id and name, then its arguments", async () => {
    server.script({ toolCalls: [{ name: "f", arguments: { a: 1 } }], chunkSize: 3 });
    const data = events(await (await post({ model: "small", messages: MESSAGES, stream: true })).text());
    const deltas = data.slice(1, -2).map((event) => JSON.parse(event).choices[0].delta.tool_calls[0]);

    expect(deltas).toEqual([
      { index: 0, id: "call_1_0", type: "function", function: { name: "f", arguments: "" } },
      { index: 0, function: { arguments: '{"a' } },
      { index: 0, function: { arguments: '":1' } },
      { index: 0, function: { arguments: "}" } },
    ]);
    expect(JSON.parse(data.at(-2)!).choices[0].finish_reason).toBe("tool_calls");
  });

  it("ends a scripted stream error with an error event and no [DONE]", async () => {
    server.script({ text: "abcdefgh", streamError: { afterChunks: 2, message: "boom", code: 503 } });
    const data = events(await (await post({ model: "small", messages: MESSAGES, stream: true })).text());

    expect(data).toHaveLength(3);
    expect(JSON.parse(data[2]!)).toEqual({
      error: { message: "boom", type: "server_error", param: null, code: 503 },
    });
  });

  it("destroys the socket mid-stream for dropAfterChunks", async () => {
    server.script({ text: "abcdefghijkl", dropAfterChunks: 2 });
    const response = await post({ model: "small", messages: MESSAGES, stream: true });

    await expect(response.text()).rejects.toThrow();
  });
});

describe("startOpenAIServer through the openai client", () => {
  it("serves a streamed completion the client reads", async () => {
    server.script({ reasoning: "think", text: "The answer is 42." });
    const stream = await client.chat.completions.create({ model: "small", messages: MESSAGES, stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";

    expect(text).toBe("The answer is 42.");
  });

  it("answers a non-streaming request with one chat.completion", async () => {
    server.script({
      text: "Calling.",
      reasoning: "need data",
      toolCalls: [{ id: "call_z", name: "lookup", arguments: { q: "x" } }],
      usage: { prompt: 20, completion: 8 },
    });
    const completion = await client.chat.completions.create({ model: "large", messages: MESSAGES });

    expect(completion).toMatchObject({
      object: "chat.completion",
      model: "large",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: "Calling.",
            reasoning_content: "need data",
            tool_calls: [
              { id: "call_z", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 },
    });
  });

  it("lists its models", async () => {
    const models = await client.models.list();

    expect(models.data.map((model) => model.id)).toEqual(["small", "large"]);
  });

  it("sends scripted HTTP errors with OpenAI's body and the scripted headers", async () => {
    server.script({
      status: 429,
      error: { message: "Too many", code: "rate_limit_exceeded" },
      headers: { "retry-after": "7" },
    });
    const error = await client.chat.completions
      .create({ model: "small", messages: MESSAGES })
      .catch((e) => e);

    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({
      status: 429,
      code: "rate_limit_exceeded",
      type: "invalid_request_error",
      error: { message: "Too many", type: "invalid_request_error", param: null, code: "rate_limit_exceeded" },
    });
    expect(error.headers.get("retry-after")).toBe("7");
  });

  it("fails loudly with a 500 when the script is exhausted", async () => {
    server.script({ text: "only one" });
    await client.chat.completions.create({ model: "small", messages: MESSAGES });
    const error = await client.chat.completions
      .create({ model: "small", messages: MESSAGES })
      .catch((e) => e);

    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error.message).toContain("openAIServer: script exhausted after 1 responses (request #2)");
  });

  it("computes a response from the request with a script function", async () => {
    const seen: number[] = [];
    server.script((request, index) => {
      seen.push(index);
      const body = request.body as { messages: { content: string }[] };
      return { text: `echo: ${body.messages[0]?.content}` };
    });
    const completion = await client.chat.completions.create({ model: "small", messages: MESSAGES });

    expect(completion.choices[0]?.message.content).toBe("echo: Hi");
    expect(seen).toEqual([0]);
  });

  it("answers 500 with the reason when a script function throws", async () => {
    server.script(() => {
      throw new Error("no answer for this");
    });
    const error = await client.chat.completions
      .create({ model: "small", messages: MESSAGES })
      .catch((e) => e);

    expect(error).toMatchObject({ status: 500 });
    expect(error.message).toContain("openAIServer: no answer for this");
  });

  it("records every request with its method, path, headers and body", async () => {
    server.script({ text: "ok" });
    await client.chat.completions.create({ model: "small", messages: MESSAGES, temperature: 0.5 });
    await client.models.list();

    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/chat/completions",
      "GET /v1/models",
    ]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(server.requests[0]?.body).toEqual({ model: "small", messages: MESSAGES, temperature: 0.5 });
  });

  it("rejects a wrong API key with OpenAI's 401", async () => {
    const intruder = new OpenAI({ baseURL: server.baseURL, apiKey: "wrong", maxRetries: 0 });
    const error = await intruder.models.list().catch((e) => e);

    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.code).toBe("invalid_api_key");
  });

  it("answers 404 for an unknown path", async () => {
    const response = await fetch(`${server.baseURL}/embeddings`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test" },
      body: "{}",
    });

    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "unknown_url" } });
  });

  it("takes initial responses, counts the pending ones, and closes idempotently", async () => {
    const scripted = await startOpenAIServer({ responses: [{ text: "a" }, { text: "b" }] });
    const local = new OpenAI({ baseURL: scripted.baseURL, apiKey: "k", maxRetries: 0 });
    await local.chat.completions.create({ model: "m", messages: MESSAGES });

    expect(scripted.pending).toBe(1);
    expect(scripted.url).toBe(`http://127.0.0.1:${scripted.port}`);
    await Promise.all([scripted.close(), scripted.close()]);
  });

  it("cuts an open stream when it closes", async () => {
    server.script({ text: "x".repeat(1000), chunkSize: 1, delayMs: 20 });
    const stream = await client.chat.completions.create({ model: "small", messages: MESSAGES, stream: true });
    const reading = (async () => {
      for await (const chunk of stream) void chunk;
    })();
    await server.close();

    await expect(reading).rejects.toThrow();
  });
});
