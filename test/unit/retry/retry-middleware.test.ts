import { describe, expect, it } from "vitest";
import { AbortError, AgentError, ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import { assistantMessage } from "../../../src/kernel/vocabulary/messages.js";
import type { AgentContext, ModelCall } from "../../../src/kernel/middleware/middleware.js";
import type { ModelChunk } from "../../../src/kernel/vocabulary/model.js";
import type { AbortSignalLike, KernelPorts } from "../../../src/kernel/vocabulary/ports.js";
import { retry, type RetryOptions } from "../../../src/kernel/middleware/retry-middleware.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";

const DONE: ModelChunk = {
  type: "message_done",
  message: assistantMessage("ok"),
  usage: { inputTokens: 1, outputTokens: 1 },
};

/** Ports whose sleep records each requested delay; `onSleep` may replace the default immediate resolve. */
function fakePorts(random = 0.5, onSleep?: (ms: number, signal?: AbortSignalLike) => Promise<void>) {
  const sleeps: number[] = [];
  const ports: KernelPorts = {
    now: () => 0,
    random: () => random,
    newId: () => "id",
    sleep: (ms, signal) => {
      sleeps.push(ms);
      return onSleep ? onSleep(ms, signal) : Promise.resolve();
    },
  };
  return { ports, sleeps };
}

/** A hand-built context that collects emitted events. */
function fakeContext(ports: KernelPorts, signal: AbortSignalLike = new AbortController().signal) {
  const events: AgentEvent[] = [];
  const ctx: AgentContext = {
    sessionId: "s",
    messages: [],
    turn: 1,
    signal,
    emit: (event) => events.push(event),
    state: new Map(),
    effect: () => Promise.reject(new Error("this test gives no effects")),
    ports,
  };
  return { ctx, events };
}

/** A model call that plays one outcome per attempt: an error thrown before any chunk, or chunks. */
function scriptedCall(outcomes: ReadonlyArray<Error | ModelChunk[]>) {
  let attempts = 0;
  const call: ModelCall = async function* () {
    const outcome = outcomes[Math.min(attempts++, outcomes.length - 1)]!;
    if (outcome instanceof Error) throw outcome;
    yield* outcome;
  };
  return { call, attempts: () => attempts };
}

async function drain(options: RetryOptions, ctx: AgentContext, next: ModelCall): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of retry(options).wrapModelCall!(ctx, next)) chunks.push(chunk);
  return chunks;
}

function errorEvents(events: AgentEvent[]) {
  return events.filter((e) => e.type === "error");
}

describe("retry()", () => {
  it("retries until success and emits one non-fatal error per retry", async () => {
    const { ports, sleeps } = fakePorts();
    const { ctx, events } = fakeContext(ports);
    const first = new ProviderError("overloaded", 503);
    const second = new ProviderError("rate limited", 429);
    const { call, attempts } = scriptedCall([first, second, [{ type: "text_delta", text: "ok" }, DONE]]);

    const chunks = await drain({}, ctx, call);

    expect(chunks).toEqual([{ type: "text_delta", text: "ok" }, DONE]);
    expect(attempts()).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(errorEvents(events)).toEqual([
      { type: "error", error: first, fatal: false },
      { type: "error", error: second, fatal: false },
    ]);
  });

  it("rethrows the last error once the default two retries are used up", async () => {
    const { ports, sleeps } = fakePorts();
    const { ctx, events } = fakeContext(ports);
    const errors = [new ProviderError("a", 500), new ProviderError("b", 502), new ProviderError("c", 504)];
    const { call, attempts } = scriptedCall(errors);

    await expect(drain({}, ctx, call)).rejects.toBe(errors[2]);
    expect(attempts()).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(errorEvents(events)).toHaveLength(2);
  });

  it("honours a custom maxRetries, including zero", async () => {
    const { ports } = fakePorts();
    const none = scriptedCall([new ProviderError("x", 503)]);
    await expect(drain({ maxRetries: 0 }, fakeContext(ports).ctx, none.call)).rejects.toThrow("x");
    expect(none.attempts()).toBe(1);

    const four = scriptedCall([new ProviderError("y", 503)]);
    await expect(drain({ maxRetries: 4 }, fakeContext(ports).ctx, four.call)).rejects.toThrow("y");
    expect(four.attempts()).toBe(5);
  });

  it.each([408, 409, 425, 429, 500, 502, 503, 504, undefined])(
    "retries a ProviderError with status %s",
    async (status) => {
      const { ports } = fakePorts();
      const { call, attempts } = scriptedCall([new ProviderError("transient", status), [DONE]]);
      await expect(drain({}, fakeContext(ports).ctx, call)).resolves.toEqual([DONE]);
      expect(attempts()).toBe(2);
    },
  );

  it.each([400, 401, 403, 404, 422, 501])("does not retry a ProviderError with status %s", async (status) => {
    const { ports, sleeps } = fakePorts();
    const { ctx, events } = fakeContext(ports);
    const error = new ProviderError("permanent", status);
    const { call, attempts } = scriptedCall([error, [DONE]]);

    await expect(drain({}, ctx, call)).rejects.toBe(error);
    expect(attempts()).toBe(1);
    expect(sleeps).toEqual([]);
    expect(errorEvents(events)).toEqual([]);
  });

  it("does not retry errors that are not ProviderErrors by default", async () => {
    const { ports } = fakePorts();
    const { call, attempts } = scriptedCall([new TypeError("bug"), [DONE]]);
    await expect(drain({}, fakeContext(ports).ctx, call)).rejects.toThrow("bug");
    expect(attempts()).toBe(1);
  });

  it("recognises a ProviderError from another copy of the errors module by name", async () => {
    const { ports } = fakePorts();
    const foreign = Object.assign(new AgentError("foreign"), { name: "ProviderError", status: 503 });
    const { call, attempts } = scriptedCall([foreign, [DONE]]);
    await expect(drain({}, fakeContext(ports).ctx, call)).resolves.toEqual([DONE]);
    expect(attempts()).toBe(2);
  });

  it("uses a custom retryOn and wraps non-agent errors in the emitted event", async () => {
    const { ports } = fakePorts();
    const { ctx, events } = fakeContext(ports);
    const { call, attempts } = scriptedCall([new TypeError("flaky"), [DONE]]);

    await expect(drain({ retryOn: (e) => e instanceof TypeError }, ctx, call)).resolves.toEqual([DONE]);
    expect(attempts()).toBe(2);
    const [event] = errorEvents(events);
    expect(event).toMatchObject({ type: "error", fatal: false });
    expect(AgentError.isInstance(event?.type === "error" ? event.error : undefined)).toBe(true);
    expect(event?.type === "error" && event.error.message).toBe("flaky");
  });

  it("does not retry once a chunk was yielded", async () => {
    const { ports, sleeps } = fakePorts();
    const { ctx, events } = fakeContext(ports);
    const error = new ProviderError("stream dropped", 503);
    let attempts = 0;
    const call: ModelCall = async function* () {
      attempts++;
      yield { type: "text_delta", text: "partial" };
      throw error;
    };
    const seen: ModelChunk[] = [];
    const run = async () => {
      for await (const chunk of retry().wrapModelCall!(ctx, call)) seen.push(chunk);
    };

    await expect(run()).rejects.toBe(error);
    expect(attempts).toBe(1);
    expect(seen).toEqual([{ type: "text_delta", text: "partial" }]);
    expect(sleeps).toEqual([]);
    expect(errorEvents(events)).toEqual([]);
  });

  it("stops at once when aborted during the backoff", async () => {
    const controller = new AbortController();
    const { ports, sleeps } = fakePorts(0.5, (_ms, signal) => {
      // A sleep that only ends on abort, like a long timer; abort while it is pending.
      const pending = new Promise<void>((_resolve, reject) => {
        signal?.addEventListener("abort", () => reject(new AbortError()), { once: true });
      });
      queueMicrotask(() => controller.abort());
      return pending;
    });
    const { ctx, events } = fakeContext(ports, controller.signal);
    const { call, attempts } = scriptedCall([new ProviderError("busy", 503), [DONE]]);

    await expect(drain({}, ctx, call)).rejects.toBeInstanceOf(AbortError);
    expect(attempts()).toBe(1);
    expect(sleeps).toHaveLength(1);
    expect(errorEvents(events)).toHaveLength(1);
  });

  it("stops after the backoff when the sleep port ignores the abort", async () => {
    const controller = new AbortController();
    const { ports } = fakePorts(0.5, async () => controller.abort());
    const { call, attempts } = scriptedCall([new ProviderError("busy", 503), [DONE]]);

    await expect(drain({}, fakeContext(ports, controller.signal).ctx, call)).rejects.toBeInstanceOf(
      AbortError,
    );
    expect(attempts()).toBe(1);
  });

  it("does not retry when the signal is already aborted or the call itself was aborted", async () => {
    const { ports, sleeps } = fakePorts();
    const controller = new AbortController();
    controller.abort();
    const busy = new ProviderError("busy", 503);
    const aborted = scriptedCall([busy, [DONE]]);
    await expect(drain({}, fakeContext(ports, controller.signal).ctx, aborted.call)).rejects.toBe(busy);
    expect(aborted.attempts()).toBe(1);

    const abortError = new AbortError();
    const thrown = scriptedCall([abortError, [DONE]]);
    await expect(drain({ retryOn: () => true }, fakeContext(ports).ctx, thrown.call)).rejects.toBe(
      abortError,
    );
    expect(thrown.attempts()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("waits at least retryAfterMs when the provider asked for it", async () => {
    const { ports, sleeps } = fakePorts(0.5);
    const { call } = scriptedCall([
      new ProviderError("slow down", 429, { retryAfterMs: 3000 }),
      new ProviderError("slow down", 429, { retryAfterMs: 10 }),
      [DONE],
    ]);

    await drain({}, fakeContext(ports).ctx, call);

    // First retry: jitter 0.5 × 250 = 125 < 3000, so 3000. Second: 0.5 × 500 = 250 > 10, so 250.
    expect(sleeps).toEqual([3000, 250]);
  });

  it("draws full-jitter backoff from ports.random", async () => {
    const { ports, sleeps } = fakePorts(0.5);
    const { call } = scriptedCall([new ProviderError("x", 503)]);

    await expect(drain({ maxRetries: 8 }, fakeContext(ports).ctx, call)).rejects.toThrow("x");

    // 0.5 × min(250 · 2^(n-1), 8000) for n = 1..8.
    expect(sleeps).toEqual([125, 250, 500, 1000, 2000, 4000, 4000, 4000]);
  });

  it("passes the attempt number and context to a custom backoff", async () => {
    const { ports, sleeps } = fakePorts();
    const { ctx } = fakeContext(ports);
    const seen: Array<[number, AgentContext]> = [];
    const { call } = scriptedCall([new ProviderError("x"), new ProviderError("y"), [DONE]]);

    await drain({ backoff: (n, c) => (seen.push([n, c]), n * 100) }, ctx, call);

    expect(seen).toEqual([
      [1, ctx],
      [2, ctx],
    ]);
    expect(sleeps).toEqual([100, 200]);
  });

  it("retries a failed fakeProvider call end to end", async () => {
    const { ports } = fakePorts();
    const { ctx, events } = fakeContext(ports);
    const provider = fakeProvider([
      { error: new ProviderError("busy", 503) },
      { text: "hi", message: assistantMessage("hi") },
    ]);
    const request = { model: "m", messages: [] };

    const chunks = await drain({}, ctx, () => provider.stream(request, ctx.signal));

    expect(chunks.map((c) => c.type)).toEqual(["text_delta", "text_delta", "message_done"]);
    expect(provider.requests).toHaveLength(2);
    expect(errorEvents(events)).toHaveLength(1);
  });
});
