import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { ModelChunk, ModelProvider } from "../../../src/kernel/vocabulary/model.js";
import { openaiProvider } from "../../../src/providers/openai-provider.js";
import { openAIServerConformanceScript } from "../../../src/testing/openai-server-conformance.js";
import { startOpenAIServer, type OpenAIServer } from "../../../src/testing/openai-server.js";
import {
  providerConformance,
  scriptedConformance,
  type ProviderConformanceCase,
} from "../../../src/testing/provider-conformance.js";

describe("providerConformance", () => {
  it("has the six seed cases", () => {
    expect(providerConformance.map((check) => check.name)).toEqual([
      "has an id and sends exactly one final message_done",
      "text deltas arrive in the order of the final text",
      "text and tool calls normalise to text and tool_call blocks",
      "usage normalises to inputTokens, outputTokens and cacheReadTokens",
      "the stream settles within 1000 ms of an abort",
      "errors before and during streaming become ProviderError(status)",
    ]);
  });
});

describe("providerConformance against the scripted provider", () => {
  for (const check of providerConformance) {
    it(check.name, async () => {
      const { script, factory } = scriptedConformance();
      await check.run(factory, script);
    });
  }
});

describe("providerConformance against the OpenAI provider over HTTP", () => {
  let server: OpenAIServer;
  beforeAll(async () => {
    server = await startOpenAIServer();
  });
  afterAll(() => server.close());

  for (const check of providerConformance) {
    it(check.name, async () => {
      const factory = () => openaiProvider({ baseURL: server.baseURL, apiKey: "test-key" });
      await check.run(factory, openAIServerConformanceScript(server));
      expect(server.pending).toBe(0);
    });
  }
});

/** Runs one named case against the scripted provider wrapped by `wrap`, and returns its failure, if any. */
async function failureOf(name: string, wrap: (inner: ModelProvider) => ModelProvider): Promise<unknown> {
  const check = providerConformance.find((candidate) => candidate.name === name) as ProviderConformanceCase;
  const { script, factory } = scriptedConformance();
  return check
    .run(async () => wrap(await factory()), script)
    .then(
      () => undefined,
      (error: unknown) => error,
    );
}

/** A provider whose stream is `inner`'s, rewritten chunk by chunk. */
function rewriting(map: (chunks: ModelChunk[]) => ModelChunk[]) {
  return (inner: ModelProvider): ModelProvider => ({
    id: inner.id,
    async *stream(request, signal) {
      const chunks: ModelChunk[] = [];
      for await (const chunk of inner.stream(request, signal)) chunks.push(chunk);
      yield* map(chunks);
    },
  });
}

describe("providerConformance catches broken providers", () => {
  it("catches a second message_done", async () => {
    const wrap = rewriting((chunks) => [
      ...chunks,
      ...chunks.filter((chunk) => chunk.type === "message_done"),
    ]);
    expect(await failureOf("has an id and sends exactly one final message_done", wrap)).toBeInstanceOf(Error);
  });

  it("catches deltas out of order", async () => {
    const wrap = rewriting((chunks) => [
      ...chunks.filter((chunk) => chunk.type === "text_delta").reverse(),
      chunks.at(-1)!,
    ]);
    expect(await failureOf("text deltas arrive in the order of the final text", wrap)).toBeInstanceOf(Error);
  });

  it("catches tool-call input left as a JSON string", async () => {
    const wrap = rewriting((chunks) =>
      chunks.map((chunk) => {
        if (chunk.type !== "message_done" || typeof chunk.message.content === "string") return chunk;
        const content = chunk.message.content.map((block) =>
          block.type === "tool_call" ? { ...block, input: JSON.stringify(block.input) } : block,
        );
        return { ...chunk, message: { ...chunk.message, content } };
      }),
    );
    expect(
      await failureOf("text and tool calls normalise to text and tool_call blocks", wrap),
    ).toBeInstanceOf(Error);
  });

  it("catches dropped cache counts", async () => {
    const wrap = rewriting((chunks) =>
      chunks.map((chunk) =>
        chunk.type === "message_done"
          ? {
              ...chunk,
              usage: { inputTokens: chunk.usage.inputTokens, outputTokens: chunk.usage.outputTokens },
            }
          : chunk,
      ),
    );
    expect(
      await failureOf("usage normalises to inputTokens, outputTokens and cacheReadTokens", wrap),
    ).toBeInstanceOf(Error);
  });

  it("catches a provider that ignores the abort signal", async () => {
    const wrap = (inner: ModelProvider): ModelProvider => ({
      id: inner.id,
      stream: (request) => inner.stream(request),
    });
    expect(await failureOf("the stream settles within 1000 ms of an abort", wrap)).toBeInstanceOf(Error);
  });

  it("catches errors that lose their status", async () => {
    const wrap = (inner: ModelProvider): ModelProvider => ({
      id: inner.id,
      async *stream(request, signal) {
        try {
          yield* inner.stream(request, signal);
        } catch (error) {
          throw new ProviderError(String(error));
        }
      },
    });
    expect(
      await failureOf("errors before and during streaming become ProviderError(status)", wrap),
    ).toBeInstanceOf(Error);
  });
});
