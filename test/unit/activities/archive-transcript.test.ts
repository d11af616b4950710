import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { WorkflowHandle } from "@temporalio/client";
import { MockActivityEnvironment } from "@temporalio/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createArchiveTranscript } from "../../../src/activities/archive-transcript.js";
import { AesGcmPayloadCodec } from "../../../src/encryption/aes-gcm-codec.js";
import { createKeyRing } from "../../../src/encryption/key-ring.js";
import type { TranscriptSegmentRef } from "../../../src/contract/transcript-state.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { readTranscript } from "../../../src/client/events/read-transcript.js";
import { deleteSessionBlobs } from "../../../src/storage/delete-session-blobs.js";
import { createExternalStorage } from "../../../src/storage/payload-storage.js";
import { readTranscriptSegment } from "../../../src/storage/transcript-blob.js";
import type { TranscriptPage } from "../../../src/contract/transcript-page.js";

const dir = mkdtempSync(path.join(tmpdir(), "transcript-unit-"));
const storage = createExternalStorage({ kind: "fs", dir, threshold: 128 * 1024 })!;
const messages: Message[] = [
  { role: "user", content: "first" },
  { role: "assistant", content: [{ type: "text", text: "second" }] },
];

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("archiveTranscript", () => {
  it("writes one blob under the session's prefix, readable again, deleted with the session's blobs", async () => {
    const archive = createArchiveTranscript(storage);
    const env = new MockActivityEnvironment({ namespace: "ns" } as never);
    const ref: TranscriptSegmentRef = await env.run(archive, { sessionId: "ticket/7", segment: 0, messages });
    expect(ref).toMatchObject({ driver: "lite-agent-fs", count: 2 });
    expect(ref.key).toMatch(/^ns\/sessions\/ticket%2F7\/[0-9a-f]{64}$/);
    expect(ref.bytes).toBeGreaterThan(0);
    // A retried write is the same blob.
    expect(await env.run(archive, { sessionId: "ticket/7", segment: 0, messages })).toEqual(ref);
    expect(await readTranscriptSegment(storage, { ...ref, key: ref.key! })).toEqual(messages);
    const deleted = await deleteSessionBlobs("ticket/7", { namespace: "ns", storage });
    expect(deleted.deleted[0]?.count).toBe(1);
    await expect(readTranscriptSegment(storage, { ...ref, key: ref.key! })).rejects.toThrow(/is missing/);
  });

  it("with payload encryption the stored blob is ciphertext, and only a reader with the key gets the messages", async () => {
    const codec = new AesGcmPayloadCodec(createKeyRing([["k1", randomBytes(32)]], "k1"));
    const secret: Message[] = [{ role: "user", content: "the secret marker 5f1e" }];
    const archive = createArchiveTranscript(storage, [codec]);
    const env = new MockActivityEnvironment({ namespace: "enc" } as never);
    const ref: TranscriptSegmentRef = await env.run(archive, {
      sessionId: "sealed",
      segment: 0,
      messages: secret,
    });
    const folder = path.join(dir, "enc", "sessions", "sealed");
    const blobs = readdirSync(folder).map((file) => readFileSync(path.join(folder, file), "latin1"));
    expect(blobs).toHaveLength(1);
    expect(blobs[0]).not.toContain("secret marker");
    expect(blobs[0]).toContain("binary/encrypted");
    expect(await readTranscriptSegment(storage, { ...ref, key: ref.key! }, [codec])).toEqual(secret);
    await expect(readTranscriptSegment(storage, { ...ref, key: ref.key! })).rejects.toThrow(
      /binary\/encrypted/,
    );
  });

  it("without storage returns a reference without a key (the session reports the gap)", async () => {
    const ref = await createArchiveTranscript(undefined)({ sessionId: "s", segment: 3, messages });
    expect(ref).toEqual({ count: 2, bytes: 0 });
  });
});

/** A handle whose sessionTranscript query answers from `pages` (one answer per call, in order). */
function fakeHandle(pages: TranscriptPage[]): WorkflowHandle & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    query: async (_query: unknown, request: unknown) => {
      asked.push(request);
      const page = pages.shift();
      if (!page) throw new Error("no more pages");
      return page;
    },
  } as unknown as WorkflowHandle & { asked: unknown[] };
}

const page = (tail: Message[], from: number, total: number, compactions = 1): TranscriptPage => ({
  segments: [],
  compactions,
  tail,
  from,
  end: from + tail.length,
  total,
});

describe("readTranscript", () => {
  it("reads archived segments through the storage, notes a gap, then pages the tail; starts over after a compaction", async () => {
    const archive = createArchiveTranscript(storage);
    const env = new MockActivityEnvironment({ namespace: "default" } as never);
    const stored: TranscriptSegmentRef = await env.run(archive, { sessionId: "s2", segment: 0, messages });
    const segments = [stored, { count: 4, bytes: 0 }];
    const [a, b, c] = ["a", "b", "c"].map((content): Message => ({ role: "user", content }));
    const handle = fakeHandle([
      { ...page([a!], 0, 2, 1), segments },
      // The session compacted between the reader's pages: it starts over.
      { ...page([b!], 1, 2, 2), segments },
      { ...page([b!], 0, 2, 2), segments },
      { ...page([c!], 1, 2, 2), segments },
    ]);
    const transcript = await readTranscript(handle, storage);
    expect(transcript).toEqual([
      ...messages,
      {
        role: "system",
        content: "[4 messages were compacted without an archive: the worker had no payload storage]",
      },
      b,
      c,
    ]);
    expect(handle.asked).toEqual([{ from: 0 }, { from: 1 }, { from: 0 }, { from: 1 }]);
  });

  it("a stored segment and no storage here: a clear error", async () => {
    const handle = fakeHandle([
      { ...page([], 0, 0), segments: [{ driver: "lite-agent-fs", key: "k", count: 1, bytes: 1 }] },
    ]);
    await expect(readTranscript(handle, undefined)).rejects.toThrow(/this client has none configured/);
  });
});
