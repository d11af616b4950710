import { afterEach, beforeEach, expect, it } from "vitest";
import { DeltaPublisher } from "../../../src/stream/delta-publisher.js";
import type { DeltaSink } from "../../../src/stream/stream-delta.js";
import type { StreamDelta } from "../../../src/contract/stream/stream-delta.js";

const origin = { key: "run:1", attempt: 1 };
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  // Rejections are reported a tick after they go unhandled.
  await new Promise((resolve) => setTimeout(resolve, 20));
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

/** A sink that records stored deltas and fails while `failing()` says so. */
function flakySink(behaviour: { failing?: () => boolean; hang?: () => boolean; throwSync?: boolean } = {}) {
  const stored: StreamDelta[] = [];
  let sends = 0;
  let closed = false;
  const sink: DeltaSink = {
    send(deltas) {
      sends++;
      if (behaviour.throwSync && behaviour.failing?.()) throw new Error("sync failure");
      if (behaviour.hang?.()) return new Promise<void>(() => undefined);
      if (behaviour.failing?.()) return Promise.reject(new Error("Temporal unavailable"));
      stored.push(...deltas.map((delta) => ({ ...delta })));
      return Promise.resolve();
    },
    close: () => ((closed = true), Promise.resolve()),
  };
  return { sink, stored, sends: () => sends, closed: () => closed };
}

/** The text a reader rebuilds from stored deltas, by offset (repeats overwrite themselves). */
function rebuilt(stored: StreamDelta[], kind: StreamDelta["kind"] = "text"): string {
  let text = "";
  for (const delta of stored.filter((d) => d.kind === kind)) {
    text = text.padEnd(delta.at, "_");
    text = text.slice(0, delta.at) + delta.text + text.slice(delta.at + delta.text.length);
  }
  return text;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("batches and merges pieces of the same kind; end stores everything and the end marker", async () => {
  const { sink, stored, sends, closed } = flakySink();
  const publisher = new DeltaPublisher(sink, origin, { batchMs: 10 });
  publisher.push("reasoning", "think ");
  publisher.push("reasoning", "hard");
  publisher.push("text", "Hel");
  publisher.push("text", "lo");
  expect(await publisher.end()).toBe(true);
  await publisher.close();
  expect(sends()).toBe(1);
  expect(stored).toEqual([
    { ...origin, kind: "reasoning", at: 0, text: "think hard" },
    { ...origin, kind: "text", at: 0, text: "Hello" },
    { ...origin, kind: "text", at: 5, text: "", end: true },
  ]);
  expect(closed()).toBe(true);
  expect(publisher.stats()).toMatchObject({ sentBatches: 1, failedSends: 0, droppedChars: 0, lostChars: 0 });
});

it("after-output: a call without output sends nothing; one with output ends with the marker", async () => {
  const silent = flakySink();
  const quiet = new DeltaPublisher(silent.sink, origin, { batchMs: 10, endMarker: "after-output" });
  expect(await quiet.end()).toBe(true);
  await quiet.close();
  expect(silent.sends()).toBe(0);
  const talking = flakySink();
  const publisher = new DeltaPublisher(talking.sink, origin, { batchMs: 10, endMarker: "after-output" });
  publisher.push("text", "Hi");
  expect(await publisher.end()).toBe(true);
  expect(talking.stored).toEqual([
    { ...origin, kind: "text", at: 0, text: "Hi" },
    { ...origin, kind: "text", at: 2, text: "", end: true },
  ]);
});

it("a sink that rejects for a while: the batch is retried in order, nothing is lost, nothing throws", async () => {
  let failures = 3;
  const { sink, stored } = flakySink({ failing: () => failures-- > 0 });
  const publisher = new DeltaPublisher(sink, origin, { batchMs: 1, initialRetryMs: 5, maxRetryMs: 10 });
  for (let i = 0; i < 20; i++) {
    publisher.push("text", `${i},`);
    await sleep(2);
  }
  expect(await publisher.end()).toBe(true);
  await publisher.close();
  const expected = Array.from({ length: 20 }, (_, i) => `${i},`).join("");
  expect(rebuilt(stored)).toBe(expected);
  expect(stored.at(-1)).toMatchObject({ end: true, at: expected.length });
  expect(publisher.stats()).toMatchObject({ failedSends: 3, droppedChars: 0, lostChars: 0 });
});

it("a sink that throws synchronously counts as a failed send", async () => {
  let failures = 2;
  const { sink, stored } = flakySink({ failing: () => failures-- > 0, throwSync: true });
  const publisher = new DeltaPublisher(sink, origin, { batchMs: 1, initialRetryMs: 5 });
  publisher.push("text", "abc");
  expect(await publisher.end()).toBe(true);
  expect(rebuilt(stored)).toBe("abc");
  expect(publisher.stats().failedSends).toBe(2);
});

it("while the sink fails the buffer is bounded: the oldest text is dropped and counted, offsets stay right", async () => {
  let down = true;
  const { sink, stored } = flakySink({ failing: () => down });
  const publisher = new DeltaPublisher(sink, origin, {
    batchMs: 1,
    maxBufferedChars: 10,
    initialRetryMs: 5,
    maxRetryMs: 5,
  });
  publisher.push("text", "0123456789");
  await sleep(20);
  publisher.push("text", "abcdef");
  await sleep(20);
  down = false;
  expect(await publisher.end()).toBe(true);
  expect(stored.filter((d) => d.text !== "")).toEqual([
    { ...origin, kind: "text", at: 6, text: "6789abcdef" },
  ]);
  expect(publisher.stats()).toMatchObject({ droppedChars: 6, lostChars: 6 });
});

it("a sink that hangs: push never waits, end gives up after its deadline, close after its own", async () => {
  const { sink } = flakySink({ hang: () => true });
  const hangingClose: DeltaSink = { send: sink.send, close: () => new Promise<void>(() => undefined) };
  const publisher = new DeltaPublisher(hangingClose, origin, {
    batchMs: 1,
    sendTimeoutMs: 30,
    initialRetryMs: 5,
    endDeadlineMs: 100,
    closeDeadlineMs: 50,
  });
  const started = Date.now();
  for (let i = 0; i < 1000; i++) publisher.push("text", "x");
  expect(Date.now() - started).toBeLessThan(50);
  await sleep(80);
  expect(await publisher.end()).toBe(false);
  await publisher.close();
  expect(Date.now() - started).toBeLessThan(1_000);
  expect(publisher.stats().failedSends).toBeGreaterThan(0);
  expect(publisher.stats().lostChars).toBe(1000);
});

it("a sink that rejects until the end: end resolves false (never rejects) once its deadline passes", async () => {
  const { sink } = flakySink({ failing: () => true });
  const publisher = new DeltaPublisher(sink, origin, { batchMs: 1, endDeadlineMs: 50, initialRetryMs: 5 });
  publisher.push("text", "lost");
  expect(await publisher.end()).toBe(false);
  await publisher.close();
  expect(publisher.stats()).toMatchObject({ lostChars: 4 });
  expect(String(publisher.stats().lastError)).toContain("Temporal unavailable");
});

it("a sink that recovers during the end deadline delivers everything", async () => {
  let down = true;
  const { sink, stored } = flakySink({ failing: () => down });
  const publisher = new DeltaPublisher(sink, origin, {
    batchMs: 1,
    initialRetryMs: 1_000,
    maxRetryMs: 1_000,
    endDeadlineMs: 2_000,
  });
  publisher.push("text", "late");
  await sleep(20);
  setTimeout(() => (down = false), 50);
  const started = Date.now();
  // end retries at once and then every initialRetryMs; the long pause in progress does not delay it.
  expect(await publisher.end()).toBe(true);
  expect(Date.now() - started).toBeLessThan(1_500);
  expect(rebuilt(stored)).toBe("late");
});

it("after close nothing more is sent", async () => {
  const { sink, sends } = flakySink();
  const publisher = new DeltaPublisher(sink, origin, { batchMs: 5 });
  publisher.push("text", "a");
  await publisher.close();
  publisher.push("text", "b");
  await sleep(30);
  expect(sends()).toBe(0);
});
