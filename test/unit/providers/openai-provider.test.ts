import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isOverflowError } from "../../../src/kernel/compaction/is-overflow-error.js";
import { AbortError, ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import {
  assistantMessage,
  imageBlock,
  textBlock,
  toolCallBlock,
  toolResultBlock,
  userMessage,
  type Message,
} from "../../../src/kernel/vocabulary/messages.js";
import type { ModelChunk, ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import {
  classifyProviderError,
  openai,
  openaiProvider,
  type OpenAIProviderOptions,
} from "../../../src/providers/openai-provider.js";
import { startOpenAIServer, type OpenAIServer } from "../../../src/testing/openai-server.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(() => server.close());

const REQUEST: ModelRequest = { model: "gpt-test", system: "Be brief.", messages: [userMessage("Hi")] };

function provider(options: OpenAIProviderOptions = {}) {
  return openaiProvider({ baseURL: server.baseURL, apiKey: "test-key", ...options });
}

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** The error a stream fails with, and the chunks it yielded first. */
async function failure(stream: AsyncIterable<ModelChunk>): Promise<{ error: unknown; chunks: ModelChunk[] }> {
  const chunks: ModelChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
  } catch (error) {
    return { error, chunks };
  }
  throw new Error("the stream did not fail");
}

function done(chunks: ModelChunk[]) {
  const last = chunks.at(-1);
  if (last?.type !== "message_done") throw new Error("the stream did not end with message_done");
  return last;
}

/** The JSON body of the last request the server received. */
function lastBody(): Record<string, unknown> {
  return server.requests.at(-1)?.body as Record<string, unknown>;
}

describe("openaiProvider streaming", () => {
  it("streams text as text_delta chunks and ends with one message_done", async () => {
    server.script({ text: "Hello there, world!", chunkSize: 3 });
    const chunks = await collect(provider().stream(REQUEST));

    const deltas = chunks.filter((chunk) => chunk.type === "text_delta").map((chunk) => chunk.text);
    expect(deltas).toEqual(["Hel", "lo ", "the", "re,", " wo", "rld", "!"]);
    expect(chunks.filter((chunk) => chunk.type === "message_done")).toHaveLength(1);
    expect(done(chunks).message).toEqual(assistantMessage([textBlock("Hello there, world!")]));
    expect(lastBody()).toMatchObject({
      model: "gpt-test",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer test-key");
  });

  it("assembles two parallel tool calls from interleaved deltas split across many chunks", async () => {
    server.script({
      text: "Checking.",
      toolCalls: [
        { id: "call_a", name: "get_weather", arguments: { city: "Paris", unit: "celsius" } },
        { id: "call_b", name: "get_time", arguments: { zone: "Europe/Paris" } },
      ],
      chunkSize: 2,
      interleaveToolCalls: true,
    });
    const chunks = await collect(provider().stream(REQUEST));

    const callDeltas = chunks.filter((chunk) => chunk.type === "tool_call_delta");
    const indexes = callDeltas.map((chunk) => chunk.index);
    expect(indexes.slice(0, 4)).toEqual([0, 1, 0, 1]);
    const argumentsOf = (index: number) =>
      callDeltas
        .filter((chunk) => chunk.index === index)
        .map((chunk) => chunk.argumentsDelta ?? "")
        .join("");
    expect(argumentsOf(0)).toBe('{"city":"Paris","unit":"celsius"}');
    expect(argumentsOf(1)).toBe('{"zone":"Europe/Paris"}');
    expect(callDeltas[0]).toEqual({ type: "tool_call_delta", index: 0, id: "call_a", name: "get_weather" });
    expect(done(chunks).message.content).toEqual([
      textBlock("Checking."),
      toolCallBlock("call_a", "get_weather", { city: "Paris", unit: "celsius" }),
      toolCallBlock("call_b", "get_time", { zone: "Europe/Paris" }),
    ]);
  });

  it("turns invalid argument JSON into {} and keeps the raw text in a native block", async () => {
    server.script({ toolCalls: [{ id: "call_x", name: "search", arguments: '{"query": "cats' }] });
    const chunks = await collect(provider().stream(REQUEST));

    expect(done(chunks).message.content).toEqual([
      toolCallBlock("call_x", "search", {}),
      {
        type: "native",
        provider: "openai",
        data: {
          invalidToolArguments: [{ index: 0, id: "call_x", name: "search", arguments: '{"query": "cats' }],
        },
      },
    ]);
  });

  it("leaves a missing tool-call id empty, for the codec to fill in", async () => {
    server.script({ toolCalls: [{ id: null, name: "now", arguments: {} }] });
    const chunks = await collect(provider().stream(REQUEST));

    expect(done(chunks).message.content).toEqual([toolCallBlock("", "now", {})]);
  });

  it("follows tool calls by id and name when a server leaves out their index", async () => {
    server.script({
      deltas: [
        {
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "a", arguments: "" } }],
        },
        { tool_calls: [{ function: { arguments: '{"x":' } }] },
        { tool_calls: [{ function: { arguments: "1}" } }] },
        { tool_calls: [{ id: "call_2", type: "function", function: { name: "b", arguments: '{"y":2}' } }] },
        { tool_calls: [{ id: "call_1", function: { arguments: "" } }] },
      ],
      finishReason: "tool_calls",
    });
    const chunks = await collect(provider().stream(REQUEST));

    expect(done(chunks).message.content).toEqual([
      toolCallBlock("call_1", "a", { x: 1 }),
      toolCallBlock("call_2", "b", { y: 2 }),
    ]);
  });

  it("reports usage with OpenAI's cached tokens", async () => {
    server.script({ text: "ok", usage: { prompt: 1200, completion: 30, cached: 1024 } });
    const chunks = await collect(provider().stream(REQUEST));

    expect(done(chunks).usage).toEqual({ inputTokens: 1200, outputTokens: 30, cacheReadTokens: 1024 });
  });

  it("reports DeepSeek's prompt_cache_hit_tokens as cached tokens", async () => {
    server.script({
      text: "ok",
      usage: { prompt: 500, completion: 5, cached: 320, cachedField: "prompt_cache_hit_tokens" },
    });
    const chunks = await collect(provider().stream(REQUEST));

    expect(done(chunks).usage).toEqual({ inputTokens: 500, outputTokens: 5, cacheReadTokens: 320 });
  });

  it("streams reasoning_content as reasoning_delta chunks and keeps it first in the message", async () => {
    server.script({ reasoning: "Two plus two is four.", text: "4", chunkSize: 5 });
    const chunks = await collect(provider().stream(REQUEST));

    const reasoning = chunks.filter((chunk) => chunk.type === "reasoning_delta").map((chunk) => chunk.text);
    expect(reasoning).toEqual(["Two p", "lus t", "wo is", " four", "."]);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      ...reasoning.map(() => "reasoning_delta"),
      "text_delta",
      "message_done",
    ]);
    expect(done(chunks).message.content).toEqual([
      { type: "reasoning", text: "Two plus two is four." },
      textBlock("4"),
    ]);
  });

  it("reads reasoning from the `reasoning` delta field too", async () => {
    server.script({ reasoning: "hmm", reasoningField: "reasoning", text: "yes" });
    const chunks = await collect(provider().stream(REQUEST));

    expect(chunks.filter((chunk) => chunk.type === "reasoning_delta")).toEqual([
      { type: "reasoning_delta", text: "hmm" },
    ]);
    expect(done(chunks).message.content).toEqual([{ type: "reasoning", text: "hmm" }, textBlock("yes")]);
  });
});

describe("openaiProvider request mapping", () => {
  it("sends images as image_url parts: base64 data as a data URL, or the URL", async () => {
    server.script({ text: "A cat." });
    const message = userMessage([
      textBlock("What is this?"),
      imageBlock("iVBORw0KGgo=", "image/png"),
      { type: "image", mimeType: "image/jpeg", url: "https://example.com/cat.jpg" },
    ]);
    await collect(provider().stream({ model: "gpt-test", messages: [message] }));

    expect(lastBody().messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
        ],
      },
    ]);
  });

  it("sends tools, tool choice, temperature, top_p, seed, max_tokens and stop", async () => {
    server.script({ text: "ok" });
    await collect(
      provider().stream({
        ...REQUEST,
        tools: [{ name: "get_weather", description: "Weather.", parameters: { type: "object" } }],
        toolChoice: { tool: "get_weather" },
        temperature: 0.2,
        topP: 0.9,
        seed: 7,
        maxTokens: 256,
        stopSequences: ["END"],
      }),
    );

    expect(lastBody()).toMatchObject({
      tools: [
        {
          type: "function",
          function: { name: "get_weather", description: "Weather.", parameters: { type: "object" } },
        },
      ],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      temperature: 0.2,
      top_p: 0.9,
      seed: 7,
      max_tokens: 256,
      stop: ["END"],
    });
    expect(lastBody()).not.toHaveProperty("max_completion_tokens");
  });

  it("maps auto, none and required tool choices, and sends no tool_choice without tools", async () => {
    const tools = [{ name: "t", description: "d", parameters: { type: "object" } }];
    for (const toolChoice of ["auto", "none", "required"] as const) {
      server.script({ text: "ok" });
      await collect(provider().stream({ ...REQUEST, tools, toolChoice }));
      expect(lastBody().tool_choice).toBe(toolChoice);
    }
    server.script({ text: "ok" });
    await collect(provider().stream({ ...REQUEST, toolChoice: "required" }));
    expect(lastBody()).not.toHaveProperty("tool_choice");
    expect(lastBody()).not.toHaveProperty("tools");
  });

  it("sends max_completion_tokens when asked to, and leaves unset options out", async () => {
    server.script({ text: "ok" }, { text: "ok" });
    await collect(
      provider({ maxTokensField: "max_completion_tokens" }).stream({ ...REQUEST, maxTokens: 64 }),
    );
    expect(lastBody()).toMatchObject({ max_completion_tokens: 64 });
    expect(lastBody()).not.toHaveProperty("max_tokens");

    await collect(provider().stream(REQUEST));
    for (const key of ["temperature", "top_p", "seed", "max_tokens", "stop", "tools", "tool_choice"]) {
      expect(lastBody()).not.toHaveProperty(key);
    }
  });

  it("uses the default model when the request names none", async () => {
    server.script({ text: "ok" });
    await collect(provider({ defaultModel: "llama3" }).stream({ ...REQUEST, model: "" }));

    expect(lastBody().model).toBe("llama3");
  });

  it("maps a multi-turn history: tool calls, tool results right after them, then the user's text", async () => {
    server.script({ text: "Done." });
    const history: Message[] = [
      userMessage("Weather and time in Paris?"),
      assistantMessage([
        { type: "reasoning", text: "I need two tools." },
        textBlock("Let me look."),
        toolCallBlock("call_1", "get_weather", { city: "Paris" }),
        toolCallBlock("call_2", "get_time", { zone: "Europe/Paris" }),
      ]),
      userMessage([
        toolResultBlock("call_1", "sunny"),
        toolResultBlock("call_2", "Error: clock unavailable", true),
        textBlock("Also, be quick."),
      ]),
      assistantMessage([toolCallBlock("call_3", "get_time", {})]),
      userMessage([toolResultBlock("call_3", "12:00")]),
      assistantMessage([
        textBlock("Sunny, noon."),
        { type: "native", provider: "anthropic", data: { x: 1 } },
        { type: "compaction", content: "summary" },
      ]),
      userMessage("Thanks"),
    ];
    await collect(provider().stream({ model: "gpt-test", system: "Be brief.", messages: history }));

    expect(lastBody().messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather and time in Paris?" },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris"}' },
          },
          {
            id: "call_2",
            type: "function",
            function: { name: "get_time", arguments: '{"zone":"Europe/Paris"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
      { role: "tool", tool_call_id: "call_2", content: "Error: clock unavailable" },
      { role: "user", content: "Also, be quick." },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_3", type: "function", function: { name: "get_time", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_3", content: "12:00" },
      { role: "assistant", content: "Sunny, noon." },
      { role: "user", content: "Thanks" },
    ]);
  });

  it("reports finish_reason as the seed's stop reason: length is max_tokens, tool_calls tool_use", async () => {
    server.script({ text: "cut of", finishReason: "length" });
    expect(done(await collect(provider().stream(REQUEST))).stopReason).toBe("max_tokens");
    server.script({ toolCalls: [{ id: "call_1", name: "now", arguments: {} }] });
    expect(done(await collect(provider().stream(REQUEST))).stopReason).toBe("tool_use");
    server.script({ text: "all of it" });
    expect(done(await collect(provider().stream(REQUEST))).stopReason).toBe("stop");
    // A reason the seed has no name for is not guessed at.
    server.script({ text: "filtered", finishReason: "content_filter" });
    expect(done(await collect(provider().stream(REQUEST)))).not.toHaveProperty("stopReason");
  });

  it("is also exported under the seed's name, openai", async () => {
    expect(openai).toBe(openaiProvider);
    server.script({ text: "hi" });
    const chunks = await collect(
      openai({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0 }).stream(REQUEST),
    );
    expect(done(chunks).message).toEqual(assistantMessage([textBlock("hi")]));
  });

  it("advertises its id and context window", () => {
    const custom = provider({ id: "vllm", contextWindow: 32_768 });

    expect(custom.id).toBe("vllm");
    expect(custom.context).toEqual({ contextWindow: 32_768 });
    expect(provider().id).toBe("openai");
    expect(provider().context).toBeUndefined();
  });
});

describe("openaiProvider errors", () => {
  it("turns a 429 with retry-after into a ProviderError 429 with retryAfterMs", async () => {
    server.script({
      status: 429,
      error: { message: "Rate limit reached for gpt-test.", type: "requests", code: "rate_limit_exceeded" },
      headers: { "retry-after": "2" },
    });
    const { error, chunks } = await failure(provider().stream(REQUEST));

    expect(chunks).toEqual([]);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      status: 429,
      retryAfterMs: 2000,
      message: "Rate limit reached for gpt-test.",
    });
    expect(classifyProviderError(error)).toEqual({ retryable: true, retryAfterMs: 2000 });
  });

  it("prefers retry-after-ms over retry-after", async () => {
    server.script({
      status: 503,
      error: { message: "overloaded" },
      headers: { "retry-after-ms": "1500", "retry-after": "9" },
    });
    const { error } = await failure(provider().stream(REQUEST));

    expect(error).toMatchObject({ status: 503, retryAfterMs: 1500 });
  });

  it("turns a 400 into a ProviderError 400 with the provider's message, not retryable", async () => {
    server.script({
      status: 400,
      error: { message: "Invalid value for 'temperature'.", param: "temperature" },
    });
    const { error } = await failure(provider().stream(REQUEST));

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      status: 400,
      message: "Invalid value for 'temperature'.",
      retryAfterMs: undefined,
    });
    expect(classifyProviderError(error)).toEqual({ retryable: false });
  });

  it("turns a connection dropped mid-stream into a ProviderError without status", async () => {
    server.script({ text: "This answer will be cut off halfway through.", chunkSize: 5, dropAfterChunks: 4 });
    const { error, chunks } = await failure(provider().stream(REQUEST));

    expect(chunks.map((chunk) => chunk.type)).toEqual(["text_delta", "text_delta", "text_delta"]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBeUndefined();
    expect(classifyProviderError(error)).toEqual({ retryable: true });
  });

  it("does not pass off a stream that ends before finish_reason as complete", async () => {
    // Every chunk but the finish and usage ones, then the socket is destroyed: no message_done may follow.
    server.script({ text: "partial", chunkSize: 100, dropAfterChunks: 2 });
    const { error, chunks } = await failure(provider().stream(REQUEST));

    expect(chunks).toEqual([{ type: "text_delta", text: "partial" }]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBeUndefined();
  });

  it("turns an error event inside the stream into a ProviderError with its code as status", async () => {
    server.script({
      text: "Some text first",
      streamError: { afterChunks: 2, message: "Upstream rate limit", code: 429 },
    });
    const { error, chunks } = await failure(provider().stream(REQUEST));

    expect(chunks.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 429, message: "Upstream rate limit" });
  });

  it("turns a refused connection into a ProviderError without status", async () => {
    const closed = provider();
    await server.close();
    const { error } = await failure(closed.stream(REQUEST));

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBeUndefined();
    expect((error as ProviderError).message).toMatch(/^connection error/);
  });

  it("fails loudly with the server's message when the script is exhausted", async () => {
    const { error } = await failure(provider().stream(REQUEST));

    expect(error).toMatchObject({ status: 500 });
    expect((error as Error).message).toContain("script exhausted after 0 responses (request #1)");
  });

  it("keeps context-overflow messages recognisable by isOverflowError", async () => {
    server.script(
      {
        status: 400,
        error: {
          message:
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000.",
          code: "context_length_exceeded",
        },
      },
      { status: 400, error: { message: "Input is too large.", code: "context_length_exceeded" } },
      {
        status: 400,
        error: { message: "Invalid schema for function 'x'.", code: "invalid_function_parameters" },
      },
    );
    const first = (await failure(provider().stream(REQUEST))).error;
    const codeOnly = (await failure(provider().stream(REQUEST))).error;
    const other = (await failure(provider().stream(REQUEST))).error;

    expect(first).toMatchObject({ status: 400 });
    expect((first as Error).message).toContain("maximum context length is 8192 tokens");
    expect(isOverflowError(first)).toBe(true);
    expect(codeOnly).toMatchObject({ status: 400, message: "Input is too large. (context_length_exceeded)" });
    expect(isOverflowError(codeOnly)).toBe(true);
    expect(isOverflowError(other)).toBe(false);
  });
});

describe("openaiProvider abort", () => {
  it("ends a stream aborted mid-way with an AbortError and no message_done", async () => {
    server.script({ text: "word ".repeat(400), chunkSize: 5, delayMs: 10 });
    const controller = new AbortController();
    const chunks: ModelChunk[] = [];
    let error: unknown;
    try {
      for await (const chunk of provider().stream(REQUEST, controller.signal)) {
        chunks.push(chunk);
        if (chunks.length === 3) controller.abort();
      }
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(AbortError);
    expect(chunks.length).toBeLessThan(400);
    expect(chunks.some((chunk) => chunk.type === "message_done")).toBe(false);
    expect(classifyProviderError(error)).toEqual({ retryable: false });
  });

  it("sends no request when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await failure(provider().stream(REQUEST, controller.signal));

    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toEqual([]);
  });

  it("aborts while waiting for the response headers", async () => {
    const controller = new AbortController();
    server.script(async () => {
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { text: "too late" };
    });
    const { error } = await failure(provider().stream(REQUEST, controller.signal));

    expect(error).toBeInstanceOf(AbortError);
  });
});
