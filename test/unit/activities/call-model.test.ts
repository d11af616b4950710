import { ApplicationFailure } from "@temporalio/common";
import { MockActivityEnvironment } from "@temporalio/testing";
import { expect, it } from "vitest";
import { z } from "zod";
import { AgentRegistry } from "../../../src/activities/agent-registry.js";
import { createCallModel } from "../../../src/activities/call-model.js";
import { createExecuteTool } from "../../../src/activities/execute-tool.js";
import {
  FAILURE_TYPES,
  type CallModelInput,
  type CallModelOutput,
} from "../../../src/contract/activity-types.js";
import { SecretScrubber, declareSecrets } from "../../../src/wire/scrub-secrets.js";
import { defineAgent } from "../../../src/define-agent.js";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import { assistantMessage } from "../../../src/kernel/vocabulary/messages.js";
import type { ModelChunk, ModelProvider, ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import type { DeltaTransport } from "../../../src/stream/delta-transport.js";
import type { DeltaSink } from "../../../src/stream/stream-delta.js";

const KEY = "sk-test-0123456789abcdefKEY";

function streaming(text: string[]): ModelProvider {
  return {
    id: "scripted",
    async *stream(): AsyncIterable<ModelChunk> {
      for (const piece of text) yield { type: "text_delta", text: piece };
      const message = assistantMessage(text.join(""));
      yield { type: "message_done", message, usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}

function transportOf(sink: DeltaSink): DeltaTransport {
  return { kind: "temporal", batchMs: 1, endMarker: "never", sink: () => sink, close: async () => undefined };
}

const input: CallModelInput = {
  agent: "a",
  model: "m",
  runId: "r",
  turn: 1,
  requestKey: "r:1",
  request: { model: "m", messages: [] } as ModelRequest,
  stream: true,
};

const agent = defineAgent({ name: "a", model: "m" });

it("a delta sink that always fails does not fail the model call: the message comes back", async () => {
  let sends = 0;
  const sink: DeltaSink = {
    send: () => (sends++, Promise.reject(new Error("14 UNAVAILABLE: connection refused"))),
    close: () => Promise.reject(new Error("still down")),
  };
  const callModel = createCallModel(
    new AgentRegistry([agent], { m: streaming(["Hel", "lo"]) }),
    transportOf(sink),
  );
  const heartbeats: unknown[] = [];
  const env = new MockActivityEnvironment();
  env.on("heartbeat", (details) => heartbeats.push(details));
  const output = (await env.run(callModel, input)) as CallModelOutput;
  expect(output.message.content).toBe("Hello");
  expect(sends).toBeGreaterThan(0);
  // One heartbeat per chunk (the SDK throttles what reaches the server).
  expect(heartbeats.length).toBeGreaterThanOrEqual(3);
}, 15_000);

it("a sink that hangs: the call still completes within the end and close deadlines", async () => {
  const sink: DeltaSink = {
    send: () => new Promise(() => undefined),
    close: () => new Promise(() => undefined),
  };
  const callModel = createCallModel(
    new AgentRegistry([agent], { m: streaming(["a", "b"]) }),
    transportOf(sink),
  );
  const started = Date.now();
  const output = (await new MockActivityEnvironment().run(callModel, input)) as CallModelOutput;
  expect(output.message.content).toBe("ab");
  expect(Date.now() - started).toBeLessThan(8_000);
}, 15_000);

it("a provider error echoing the API key is a ProviderError whose message, stack and cause are scrubbed", async () => {
  const provider = declareSecrets(
    {
      id: "p",
      // eslint-disable-next-line require-yield
      async *stream(): AsyncIterable<ModelChunk> {
        throw new ProviderError(`Incorrect API key provided: ${KEY}; header Bearer ${KEY}`, 400, {
          cause: new Error(`400 Incorrect API key provided: ${KEY}`),
        });
      },
    } satisfies ModelProvider,
    [KEY],
  );
  const callModel = createCallModel(
    new AgentRegistry([agent], { m: provider }),
    undefined,
    new SecretScrubber(),
  );
  const error = await new MockActivityEnvironment().run(callModel, input).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApplicationFailure);
  const failure = error as ApplicationFailure;
  expect(failure.type).toBe(FAILURE_TYPES.provider);
  expect(failure.nonRetryable).toBe(true);
  expect(failure.message).toContain("Incorrect API key provided: [redacted]");
  const texts = [failure.message, failure.stack, failure.cause?.message, failure.cause?.stack];
  for (let cause = failure.cause?.cause; cause instanceof Error; cause = cause.cause)
    texts.push(cause.message, cause.stack);
  expect(texts.join("\n")).not.toContain("0123456789abcdefKEY");
});

it("tool results and tool errors are scrubbed of configured secrets", async () => {
  const leaky = defineTool({
    name: "leaky",
    description: "leaks",
    schema: z.object({ fail: z.boolean() }),
    execute: ({ fail }) => {
      if (fail) throw new Error(`upstream refused token my-configured-secret`);
      return `called with Authorization: Bearer abc.def and my-configured-secret`;
    },
  });
  const registry = new AgentRegistry([defineAgent({ name: "a", model: "m", tools: [leaky] })], {});
  const executeTool = createExecuteTool(registry, new SecretScrubber(["my-configured-secret"]));
  const call = (fail: boolean) => ({
    agent: "a",
    sessionId: "s",
    runId: "r",
    turn: 1,
    call: { id: "c", name: "leaky", input: { fail } },
  });
  const env = new MockActivityEnvironment();
  expect(await env.run(executeTool, call(false))).toEqual({
    content: "called with Authorization: Bearer [redacted] and [redacted]",
  });
  expect(await env.run(executeTool, call(true))).toEqual({
    content: "Error: upstream refused token [redacted]",
    isError: true,
  });
});
