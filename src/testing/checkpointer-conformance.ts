import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { AgentError, CheckpointConflictError } from "../kernel/vocabulary/errors.js";
import type { Checkpointer, SessionEvent, StoredEvent } from "../kernel/vocabulary/session-events.js";

/** Builds the checkpointer under test; called once per case. */
export type CheckpointerFactory = () => Checkpointer | Promise<Checkpointer>;

/** One case of {@link checkpointerConformance}. */
export interface CheckpointerConformanceCase {
  name: string;
  /** Resolves when the checkpointer behaves; rejects with an assertion error naming what broke. */
  run(factory: CheckpointerFactory): Promise<void>;
}

/**
 * The behaviour every Checkpointer must have, as six runnable cases, each on fresh random session ids (a factory may
 * share a persistent store).
 * @example for (const check of checkpointerConformance) it(check.name, () => check.run(() => myCheckpointer()));
 */
export const checkpointerConformance: readonly CheckpointerConformanceCase[] = [
  { name: "head is monotonic and read replays in seq order", run: monotonicHeadAndReplay },
  { name: "read with sinceSeq is exclusive", run: sinceSeqIsExclusive },
  { name: "a stale expectedHead is rejected with CheckpointConflictError", run: staleExpectedHeadRejected },
  { name: "list shows sessions and delete removes one", run: listAndDelete },
  { name: "10 concurrent appends give seq 1..10 with no gaps", run: concurrentAppends },
  { name: "payloads round-trip unchanged", run: payloadRoundTrip },
];

async function monotonicHeadAndReplay(factory: CheckpointerFactory): Promise<void> {
  const checkpointer = await factory();
  const id = freshSessionId();
  assert.equal(await checkpointer.head(id), 0, "an unknown session has head 0");
  assert.equal(await checkpointer.append(id, [note("a"), note("b")]), 2, "append returns the new head");
  assert.equal(await checkpointer.append(id, [note("c")]), 3);
  assert.equal(await checkpointer.head(id), 3);
  const stored = await readAll(checkpointer, id);
  assert.deepEqual(
    stored.map((entry) => entry.seq),
    [1, 2, 3],
  );
  assert.deepEqual(
    stored.map((entry) => entry.parentSeq),
    [null, 1, 2],
  );
  assert.deepEqual(
    stored.map((entry) => entry.event),
    [note("a"), note("b"), note("c")],
  );
  for (const entry of stored) {
    assert.equal(entry.sessionId, id);
    assert.ok(!Number.isNaN(Date.parse(entry.ts)), `ts is an ISO timestamp, got ${JSON.stringify(entry.ts)}`);
  }
}

async function sinceSeqIsExclusive(factory: CheckpointerFactory): Promise<void> {
  const checkpointer = await factory();
  const id = freshSessionId();
  await checkpointer.append(id, ["1", "2", "3", "4", "5"].map(note));
  const seqs = async (sinceSeq: number): Promise<number[]> =>
    (await readAll(checkpointer, id, sinceSeq)).map((entry) => entry.seq);
  assert.deepEqual(await seqs(2), [3, 4, 5]);
  assert.deepEqual(await seqs(0), [1, 2, 3, 4, 5]);
  assert.deepEqual(await seqs(5), []);
}

async function staleExpectedHeadRejected(factory: CheckpointerFactory): Promise<void> {
  const checkpointer = await factory();
  const id = freshSessionId();
  assert.equal(
    await checkpointer.append(id, [note("a"), note("b")], 0),
    2,
    "a matching expectedHead is accepted",
  );
  await assert.rejects(checkpointer.append(id, [note("stale")], 1), (error: unknown) => {
    assert.ok(isConflictError(error), `expected a CheckpointConflictError, got ${String(error)}`);
    assert.equal(error.sessionId, id);
    assert.equal(error.expected, 1);
    assert.equal(error.actual, 2);
    return true;
  });
  assert.equal(await checkpointer.head(id), 2, "a rejected append writes nothing");
  assert.equal(await checkpointer.append(id, [note("c")], 2), 3);
}

async function listAndDelete(factory: CheckpointerFactory): Promise<void> {
  const checkpointer = await factory();
  const [first, second] = [freshSessionId(), freshSessionId()];
  await checkpointer.append(first, [note("first")]);
  await checkpointer.append(second, [note("second")]);
  const listed = await checkpointer.list();
  for (const id of [first, second]) {
    const info = listed.find((session) => session.id === id);
    assert.ok(info, `list() includes ${id}`);
    assert.equal(typeof info.mtime, "number");
  }
  await checkpointer.delete(first);
  const ids = (await checkpointer.list()).map((session) => session.id);
  assert.ok(!ids.includes(first), "a deleted session is no longer listed");
  assert.ok(ids.includes(second), "delete leaves other sessions alone");
  assert.equal(await checkpointer.head(first), 0, "a deleted session has head 0");
  assert.deepEqual(await readAll(checkpointer, first), []);
  await checkpointer.delete(freshSessionId()); // deleting an unknown session is not an error
}

async function concurrentAppends(factory: CheckpointerFactory): Promise<void> {
  const checkpointer = await factory();
  const id = freshSessionId();
  const labels = Array.from({ length: 10 }, (_, index) => `concurrent-${index}`);
  const heads = await Promise.all(labels.map((label) => checkpointer.append(id, [note(label)])));
  assert.deepEqual(
    [...heads].sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    "each append returns a distinct head",
  );
  const stored = await readAll(checkpointer, id);
  assert.deepEqual(
    stored.map((entry) => entry.seq),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  const written = stored.map((entry) => (entry.event.type === "user" ? entry.event.message.content : null));
  assert.deepEqual([...written].sort(), [...labels].sort(), "every append is stored exactly once");
  assert.equal(await checkpointer.head(id), 10);
}

async function payloadRoundTrip(factory: CheckpointerFactory): Promise<void> {
  const checkpointer = await factory();
  const id = freshSessionId();
  const events = richEvents();
  await checkpointer.append(id, events);
  const stored = await readAll(checkpointer, id);
  assert.deepEqual(
    stored.map((entry) => entry.event),
    events,
  );
}

/** Events covering every content block kind, nested tool input, non-ASCII text and sidecar events. */
function richEvents(): SessionEvent[] {
  return [
    {
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "text", text: 'Décris cette image 🖼️ — 日本語も。\n\t"quoted" \\ backslash' },
          {
            type: "image",
            mimeType: "image/png",
            data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
          },
          { type: "image", mimeType: "image/jpeg", url: "https://example.com/cat.jpg?q=1&r=ü" },
        ],
      },
    },
    {
      type: "assistant",
      message: {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Need the file first." },
          { type: "text", text: "Je regarde…" },
          {
            type: "tool_call",
            id: "call_0123456789abcdef",
            name: "read_file",
            input: {
              path: "docs/ñandú.md",
              range: [1, 40],
              options: { raw: true, encoding: null, ratio: 0.25 },
            },
          },
          { type: "native", provider: "anthropic", data: { signature: "abc", nested: [{ a: 1 }] } },
        ],
      },
    },
    { type: "tool_started", id: "call_0123456789abcdef", name: "read_file", turn: 1 },
    { type: "file_snapshot", path: "docs/ñandú.md", before: null, encoding: "utf8", turn: 1 },
    {
      type: "tool_result",
      result: {
        type: "tool_result",
        id: "call_0123456789abcdef",
        content: "Error: 見つかりません",
        isError: true,
      },
      turn: 1,
    },
    { type: "assistant", message: { role: "assistant", content: "Fin. ✅" } },
  ];
}

function note(text: string): SessionEvent {
  return { type: "user", message: { role: "user", content: text } };
}

function freshSessionId(): string {
  return `conformance-${randomUUID()}`;
}

async function readAll(checkpointer: Checkpointer, id: string, sinceSeq?: number): Promise<StoredEvent[]> {
  const stored: StoredEvent[] = [];
  for await (const entry of checkpointer.read(id, sinceSeq === undefined ? undefined : { sinceSeq })) {
    stored.push(entry);
  }
  return stored;
}

/** Also accepts the error from another copy of this package, where `instanceof` fails. */
function isConflictError(error: unknown): error is CheckpointConflictError {
  return (
    error instanceof CheckpointConflictError ||
    (AgentError.isInstance(error) && error.name === "CheckpointConflictError")
  );
}
