import assert from "node:assert/strict";
import { AgentError, ProviderError } from "../kernel/vocabulary/errors.js";
import { userMessage, type AssistantMessage, type ContentBlock } from "../kernel/vocabulary/messages.js";
import type { ModelChunk, ModelProvider, ModelRequest, Usage } from "../kernel/vocabulary/model.js";
import { fakeProvider, type FakeStaticTurn } from "../providers/fake-provider.js";
import { textTurn, toolCallTurn } from "./builders.js";

/** Builds the provider under test; called once per case. */
export type ProviderFactory = () => ModelProvider | Promise<ModelProvider>;

/** A tool call the model is scripted to make. */
export interface ConformanceToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/**
 * The provider's next answer: `{ text, usage? }` (streamed in several deltas), `{ toolCall, text?, usage? }`,
 * `{ error: status }` (fails before streaming), `{ errorMidStream: status, text }` (fails after part of `text`), or
 * `{ slow: true }` (a long answer, to be aborted).
 */
export type ConformanceStep =
  | { text: string; usage?: Usage }
  | { toolCall: ConformanceToolCall; text?: string; usage?: Usage }
  | { error: number }
  | { errorMidStream: number; text: string }
  | { slow: true };

/** Tells the provider under test (or the server behind it) what to answer next. */
export interface ConformanceScript {
  next(step: ConformanceStep): void | Promise<void>;
}

/** One case of {@link providerConformance}. */
export interface ProviderConformanceCase {
  name: string;
  /** Resolves when the provider behaves; rejects with an assertion error naming what broke. */
  run(factory: ProviderFactory, script: ConformanceScript): Promise<void>;
}

/** How long a provider may take to settle after its signal aborts. */
export const ABORT_SETTLE_MS = 1000;

/**
 * Six runnable cases every ModelProvider must pass: one id and one final `message_done`, ordered text deltas, `text`
 * and `tool_call` blocks, usage, abort within {@link ABORT_SETTLE_MS}, and `ProviderError`s with the HTTP status.
 * Each case scripts answers through `script`, then calls `factory` once: `check.run(factory, script)`.
 */
export const providerConformance: readonly ProviderConformanceCase[] = [
  { name: "has an id and sends exactly one final message_done", run: oneFinalMessage },
  { name: "text deltas arrive in the order of the final text", run: deltasMatchFinalText },
  { name: "text and tool calls normalise to text and tool_call blocks", run: textAndToolCallNormalised },
  { name: "usage normalises to inputTokens, outputTokens and cacheReadTokens", run: usageNormalised },
  { name: `the stream settles within ${ABORT_SETTLE_MS} ms of an abort`, run: settlesAfterAbort },
  {
    name: "errors before and during streaming become ProviderError(status)",
    run: errorsBecomeProviderErrors,
  },
];

/** The request every case sends (the tool is offered so tool calls are legal). */
export const CONFORMANCE_REQUEST: ModelRequest = Object.freeze({
  model: "conformance-model",
  system: "You are a conformance test.",
  messages: [userMessage("What is the weather in Paris?")],
  tools: [
    {
      name: "get_weather",
      description: "The weather in a city.",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
});

const ANSWER = "The weather in Paris is sunny, 21 degrees, with a light breeze from the west.";

async function oneFinalMessage(factory: ProviderFactory, script: ConformanceScript): Promise<void> {
  await script.next({ text: ANSWER });
  const provider = await factory();
  assert.equal(typeof provider.id, "string", "the provider has a string id");
  assert.ok(provider.id.length > 0, "the provider id is not empty");
  const chunks = await collect(provider.stream(CONFORMANCE_REQUEST));
  const done = chunks.filter((chunk) => chunk.type === "message_done");
  assert.equal(done.length, 1, `exactly one message_done, got ${done.length}`);
  assert.equal(chunks.at(-1)?.type, "message_done", "message_done is the last chunk");
  assert.equal(done[0]?.message.role, "assistant", "the final message is the assistant's");
}

async function deltasMatchFinalText(factory: ProviderFactory, script: ConformanceScript): Promise<void> {
  await script.next({ text: ANSWER });
  const chunks = await collect((await factory()).stream(CONFORMANCE_REQUEST));
  const deltas = chunks.flatMap((chunk) => (chunk.type === "text_delta" ? [chunk.text] : []));
  assert.ok(deltas.length > 1, `the text is streamed in several deltas, got ${deltas.length}`);
  assert.equal(deltas.join(""), textOf(finalMessage(chunks).content), "the deltas spell the final text");
  assert.equal(deltas.join(""), ANSWER);
}

async function textAndToolCallNormalised(factory: ProviderFactory, script: ConformanceScript): Promise<void> {
  const toolCall = { id: "call_conformance_1", name: "get_weather", input: { city: "Paris", days: 2 } };
  await script.next({ text: "Let me check.", toolCall });
  const message = finalMessage(await collect((await factory()).stream(CONFORMANCE_REQUEST)));
  assert.ok(Array.isArray(message.content), "the final content is a list of blocks");
  assert.equal(textOf(message.content), "Let me check.", "the text is a text block");
  const calls = message.content.filter((block) => block.type === "tool_call");
  assert.equal(calls.length, 1, `one tool_call block, got ${calls.length}`);
  assert.deepEqual(calls[0], { type: "tool_call", ...toolCall }, "the call keeps id, name and parsed input");
  const firstCall = message.content.findIndex((block) => block.type === "tool_call");
  const lastText = message.content.findLastIndex((block) => block.type === "text");
  assert.ok(lastText < firstCall, "text comes before the tool calls");
}

async function usageNormalised(factory: ProviderFactory, script: ConformanceScript): Promise<void> {
  const provider = await factory();
  await script.next({ text: ANSWER, usage: { inputTokens: 42, outputTokens: 17, cacheReadTokens: 30 } });
  const reported = finalUsage(await collect(provider.stream(CONFORMANCE_REQUEST)));
  assert.equal(reported.inputTokens, 42, "inputTokens");
  assert.equal(reported.outputTokens, 17, "outputTokens");
  assert.equal(reported.cacheReadTokens, 30, "cacheReadTokens");
  await script.next({ text: ANSWER });
  const unscripted = finalUsage(await collect(provider.stream(CONFORMANCE_REQUEST)));
  for (const key of ["inputTokens", "outputTokens"] as const) {
    const value = unscripted[key];
    assert.ok(
      Number.isInteger(value) && value >= 0,
      `${key} is a count even when not scripted, got ${value}`,
    );
  }
}

async function settlesAfterAbort(factory: ProviderFactory, script: ConformanceScript): Promise<void> {
  await script.next({ slow: true });
  const controller = new AbortController();
  const iterator = (await factory()).stream(CONFORMANCE_REQUEST, controller.signal)[Symbol.asyncIterator]();
  const first = await iterator.next();
  assert.ok(!first.done && first.value.type !== "message_done", "the slow answer streams before it ends");
  controller.abort();
  const started = performance.now();
  const outcome = await settleWithin(drain(iterator), ABORT_SETTLE_MS);
  const elapsed = Math.round(performance.now() - started);
  assert.notEqual(outcome, "timeout", `the stream did not settle within ${ABORT_SETTLE_MS} ms of the abort`);
  assert.ok(
    outcome instanceof Error,
    `an aborted stream throws, it settled after ${elapsed} ms without error`,
  );
  assert.equal(outcome.name, "AbortError", `an aborted stream throws an AbortError, got ${String(outcome)}`);
}

async function errorsBecomeProviderErrors(
  factory: ProviderFactory,
  script: ConformanceScript,
): Promise<void> {
  const provider = await factory();
  for (const status of [429, 503]) {
    await script.next({ error: status });
    const seen: ModelChunk[] = [];
    const error = await failure(provider.stream(CONFORMANCE_REQUEST), seen);
    assertProviderError(error, status, "before streaming");
    assert.equal(seen.length, 0, `a request refused with ${status} yields no chunk`);
  }
  for (const status of [503, 429]) {
    await script.next({ errorMidStream: status, text: ANSWER });
    const seen: ModelChunk[] = [];
    const error = await failure(provider.stream(CONFORMANCE_REQUEST), seen);
    assertProviderError(error, status, "during streaming");
    assert.ok(seen.length > 0, `a stream failing with ${status} mid-way yielded chunks first`);
    assert.ok(!seen.some((chunk) => chunk.type === "message_done"), "a failed stream sends no message_done");
  }
}

function assertProviderError(error: unknown, status: number, when: string): void {
  const isProviderError =
    error instanceof ProviderError || (AgentError.isInstance(error) && error.name === "ProviderError");
  assert.ok(isProviderError, `an error ${when} is a ProviderError, got ${String(error)}`);
  assert.equal((error as ProviderError).status, status, `the ProviderError ${when} carries status ${status}`);
}

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** The error the stream fails with (chunks seen before it go to `seen`); fails when it does not fail. */
async function failure(stream: AsyncIterable<ModelChunk>, seen: ModelChunk[]): Promise<unknown> {
  try {
    for await (const chunk of stream) seen.push(chunk);
  } catch (error) {
    return error;
  }
  assert.fail("the stream was expected to fail");
}

async function drain(iterator: AsyncIterator<ModelChunk>): Promise<unknown> {
  try {
    while (!(await iterator.next()).done);
    return undefined;
  } catch (error) {
    return error;
  }
}

/** What `settling` resolved to, or `"timeout"` when it took longer than `ms`. */
async function settleWithin(settling: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  try {
    return await Promise.race([settling, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function finalMessage(chunks: readonly ModelChunk[]): AssistantMessage {
  const done = chunks.find((chunk) => chunk.type === "message_done");
  assert.ok(done, "the stream ends with a message_done");
  return done.message;
}

function finalUsage(chunks: readonly ModelChunk[]): Usage {
  const done = chunks.find((chunk) => chunk.type === "message_done");
  assert.ok(done, "the stream ends with a message_done");
  return done.usage;
}

function textOf(content: string | readonly ContentBlock[]): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/**
 * The conformance script for the fake providers: steps go into a shared queue and `factory`'s providers play the next
 * one per `stream()` via {@link fakeProvider}; errors are `ProviderError`s with the scripted status.
 * @example const { script, factory } = scriptedConformance(); // then check.run(factory, script) per case
 */
export function scriptedConformance(): { script: ConformanceScript; factory: ProviderFactory } {
  const queue: ConformanceStep[] = [];
  const script: ConformanceScript = { next: (step) => void queue.push(step) };
  const factory: ProviderFactory = () => ({
    id: "scripted",
    stream(request, signal) {
      const step = queue.shift();
      const turns = step === undefined ? [] : [fakeTurnFor(step)];
      return fakeProvider(turns, { id: "scripted" }).stream(request, signal);
    },
  });
  return { script, factory };
}

function fakeTurnFor(step: ConformanceStep): FakeStaticTurn {
  if ("slow" in step) return textTurn("slow ".repeat(2000));
  if ("errorMidStream" in step) {
    const error = new ProviderError(`scripted ${step.errorMidStream}`, step.errorMidStream);
    return { text: step.text, errorAfterChars: Math.ceil(step.text.length / 2), error };
  }
  if ("error" in step) return { error: new ProviderError(`scripted ${step.error}`, step.error) };
  if ("toolCall" in step) return toolCallTurn([step.toolCall], step.text, step.usage);
  return textTurn(step.text, step.usage);
}
