import { describe, expect, it } from "vitest";
import { reactiveCompaction } from "../../../src/kernel/compaction/reactive-compaction.js";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import type { ModelCall } from "../../../src/kernel/middleware/middleware.js";
import type { ModelChunk } from "../../../src/kernel/vocabulary/model.js";
import { ABORTED, fakeContext, prompt, toolTurn } from "./fixtures.js";

const overflow = () => new ProviderError("prompt too long", 400);
const chunk: ModelChunk = { type: "text_delta", text: "hi" };
const conversation = (): Message[] =>
  Array.from({ length: 4 }, (_, i) => toolTurn(`q${i}`, `c${i}`, `r${i}`.repeat(50))).flat();

/** A model call that plays one behaviour per attempt and records the messages it saw. */
function scriptedCall(
  ctx: { messages: Message[] },
  attempts: Array<"overflow" | "ok" | "chunk-then-overflow">,
) {
  const seen: Message[][] = [];
  const next: ModelCall = async function* () {
    seen.push(ctx.messages);
    const behaviour = attempts[seen.length - 1];
    if (behaviour === "overflow") throw overflow();
    yield chunk;
    if (behaviour === "chunk-then-overflow") throw overflow();
  };
  return { next, seen };
}

async function drain(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const out: ModelChunk[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe("reactiveCompaction", () => {
  it("trims, emits compaction auto and retries on an overflow before the first chunk", async () => {
    const original = conversation();
    const { ctx, events } = fakeContext(original);
    const { next, seen } = scriptedCall(ctx, ["overflow", "ok"]);
    const chunks = await drain(reactiveCompaction().wrapModelCall!(ctx, next));
    expect(chunks).toEqual([chunk]);
    expect(seen[0]).toBe(original);
    expect(seen[1]).toEqual([prompt("[2 earlier turn(s) dropped — context overflow]"), ...original.slice(6)]);
    expect(ctx.messages).toBe(seen[1]);
    expect(events).toEqual([expect.objectContaining({ type: "compaction", kind: "auto" })]);
    const event = events[0] as { before: number; after: number };
    expect(event.after).toBeLessThan(event.before);
  });

  it("rethrows an overflow after a chunk was yielded, without trimming", async () => {
    const original = conversation();
    const { ctx, events } = fakeContext(original);
    const { next, seen } = scriptedCall(ctx, ["chunk-then-overflow", "ok"]);
    await expect(drain(reactiveCompaction().wrapModelCall!(ctx, next))).rejects.toThrow("prompt too long");
    expect(seen).toHaveLength(1);
    expect(ctx.messages).toBe(original);
    expect(events).toEqual([]);
  });

  it("rethrows after maxAttempts retries (default 1)", async () => {
    const { ctx, events } = fakeContext(conversation());
    const { next, seen } = scriptedCall(ctx, ["overflow", "overflow", "ok"]);
    await expect(
      drain(reactiveCompaction({ trim: (m) => m.slice(1) }).wrapModelCall!(ctx, next)),
    ).rejects.toThrow(ProviderError);
    expect(seen).toHaveLength(2);
    expect(events).toHaveLength(1);
  });

  it("retries up to maxAttempts times", async () => {
    const { ctx, events } = fakeContext(conversation());
    const { next, seen } = scriptedCall(ctx, ["overflow", "overflow", "ok"]);
    const mw = reactiveCompaction({ trim: (m) => m.slice(1), maxAttempts: 2 });
    expect(await drain(mw.wrapModelCall!(ctx, next))).toEqual([chunk]);
    expect(seen.map((m) => m.length)).toEqual([12, 11, 10]);
    expect(events).toHaveLength(2);
  });

  it("rethrows errors that are not overflows, and overflows when aborted", async () => {
    const { ctx } = fakeContext(conversation());
    const failing: ModelCall = async function* () {
      yield* [];
      throw new ProviderError("bad gateway", 502);
    };
    await expect(drain(reactiveCompaction().wrapModelCall!(ctx, failing))).rejects.toThrow("bad gateway");
    const aborted = fakeContext(conversation(), ABORTED);
    const { next, seen } = scriptedCall(aborted.ctx, ["overflow", "ok"]);
    await expect(drain(reactiveCompaction().wrapModelCall!(aborted.ctx, next))).rejects.toThrow(
      "prompt too long",
    );
    expect(seen).toHaveLength(1);
  });

  it("rethrows when the trim cannot drop anything", async () => {
    const { ctx, events } = fakeContext([prompt("only turn")]);
    const { next, seen } = scriptedCall(ctx, ["overflow", "ok"]);
    await expect(drain(reactiveCompaction().wrapModelCall!(ctx, next))).rejects.toThrow("prompt too long");
    expect(seen).toHaveLength(1);
    expect(events).toEqual([]);
  });
});
