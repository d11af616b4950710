import { describe, expect, it } from "vitest";
import { memoryCheckpointer } from "../../../src/kernel/checkpoint/memory-checkpointer.js";
import type { Checkpointer } from "../../../src/kernel/vocabulary/session-events.js";
import { checkpointerConformance } from "../../../src/testing/checkpointer-conformance.js";

/** Runs one named case against `factory` and returns its failure, if any. */
async function failureOf(name: string, factory: () => Checkpointer): Promise<unknown> {
  const check = checkpointerConformance.find((candidate) => candidate.name === name);
  if (!check) throw new Error(`no case named ${name}`);
  return check.run(factory).then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** A correct checkpointer with one method replaced. */
function broken(patch: (inner: Checkpointer) => Partial<Checkpointer>): () => Checkpointer {
  return () => {
    const inner = memoryCheckpointer();
    return { ...inner, ...patch(inner) };
  };
}

describe("checkpointerConformance", () => {
  it("has the six seed cases", () => {
    expect(checkpointerConformance.map((check) => check.name)).toEqual([
      "head is monotonic and read replays in seq order",
      "read with sinceSeq is exclusive",
      "a stale expectedHead is rejected with CheckpointConflictError",
      "list shows sessions and delete removes one",
      "10 concurrent appends give seq 1..10 with no gaps",
      "payloads round-trip unchanged",
    ]);
  });

  it("catches a read that treats sinceSeq as inclusive", async () => {
    const factory = broken((inner) => ({
      read: (id, options) =>
        inner.read(id, options?.sinceSeq ? { sinceSeq: options.sinceSeq - 1 } : undefined),
    }));
    expect(await failureOf("read with sinceSeq is exclusive", factory)).toBeInstanceOf(Error);
  });

  it("catches an append that ignores expectedHead", async () => {
    const factory = broken((inner) => ({ append: (id, events) => inner.append(id, events) }));
    expect(
      await failureOf("a stale expectedHead is rejected with CheckpointConflictError", factory),
    ).toBeInstanceOf(Error);
  });

  it("catches appends that race on the head", async () => {
    const factory = broken((inner) => ({
      // Reads the head, yields, then writes with it: the classic lost-update race.
      append: async (id, events) => {
        const head = await inner.head(id);
        await new Promise<void>((resolve) => queueMicrotask(resolve));
        return inner.append(id, events, head).catch(() => head);
      },
    }));
    expect(await failureOf("10 concurrent appends give seq 1..10 with no gaps", factory)).toBeInstanceOf(
      Error,
    );
  });

  it("catches a delete that does nothing", async () => {
    const factory = broken(() => ({ delete: async () => {} }));
    expect(await failureOf("list shows sessions and delete removes one", factory)).toBeInstanceOf(Error);
  });

  it("catches a store that loses payload fields", async () => {
    const factory = broken((inner) => ({
      append: (id, events, expectedHead) =>
        inner.append(
          id,
          events.map((event) =>
            event.type === "tool_result" ? { ...event, result: { ...event.result, isError: false } } : event,
          ),
          expectedHead,
        ),
    }));
    expect(await failureOf("payloads round-trip unchanged", factory)).toBeInstanceOf(Error);
  });

  it("catches a head that does not move", async () => {
    const factory = broken(() => ({ head: async () => 0 }));
    expect(await failureOf("head is monotonic and read replays in seq order", factory)).toBeInstanceOf(Error);
  });
});
