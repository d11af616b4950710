import { describe, expect, it } from "vitest";
import {
  archivingCompactor,
  type TranscriptArchiver,
} from "../../../src/workflows/transcript/archiving-compactor.js";
import { TranscriptLedger } from "../../../src/workflows/transcript/transcript-ledger.js";
import type { TranscriptSegmentRef } from "../../../src/contract/transcript-state.js";
import type { Compactor } from "../../../src/kernel/compaction/types.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { ZERO_USAGE } from "../../../src/kernel/vocabulary/model.js";
import { transcriptPage, TRANSCRIPT_PAGE_CHARS } from "../../../src/workflows/transcript/transcript-page.js";
import { ABORTED, prompt } from "../compaction/fixtures.js";

/** Keeps the newest `keep` messages after a summary note. */
const keepNewest = (keep: number): Compactor => ({
  maybeCompact: (messages) =>
    messages.length <= keep + 1
      ? { messages }
      : { messages: [prompt("[summary]"), ...messages.slice(-keep)], kind: "auto" },
});

/** An archiver that stores segments in memory, as a storage driver would. */
function memoryArchiver() {
  const stored: Message[][] = [];
  const problems: unknown[] = [];
  const archiver: TranscriptArchiver & { fail?: boolean } = {
    async archive(messages, segment): Promise<TranscriptSegmentRef> {
      if (archiver.fail) throw new Error("storage down");
      stored[segment] = messages;
      return { key: `k${segment}`, count: messages.length, bytes: 1 };
    },
    compacted: () => undefined,
    failed: (error) => problems.push(error),
  };
  return { archiver, stored, problems };
}

/** The whole transcript as a reader sees it: archived segments, then the unarchived tail. */
function transcriptOf(ledger: TranscriptLedger, stored: Message[][], conversation: Message[]): string[] {
  const archived = ledger.segments.flatMap((segment) => stored[Number(segment.key!.slice(1))]!);
  return [...archived, ...ledger.pending(conversation)].map((message) => String(message.content));
}

describe("transcript bookkeeping", () => {
  it("archives what each compaction removes once, so segments plus the tail are every message in order", async () => {
    const ledger = new TranscriptLedger();
    const { archiver, stored } = memoryArchiver();
    const compactor = archivingCompactor(keepNewest(2), ledger, archiver);
    let conversation: Message[] = [];
    for (let index = 1; index <= 9; index++) {
      conversation.push(prompt(`m${index}`));
      conversation = (await compactor.maybeCompact(conversation, ZERO_USAGE)).messages;
    }
    const all = Array.from({ length: 9 }, (_, index) => `m${index + 1}`);
    expect(transcriptOf(ledger, stored, conversation)).toEqual(all);
    // The carried conversation stays small; the summary is never part of the transcript.
    expect(conversation.length).toBeLessThanOrEqual(3);
    expect(ledger.archivedCount).toBeLessThanOrEqual(conversation.length);
    expect(ledger.compactions).toBe(ledger.segments.length);
    // Carried across continue-as-new, the state goes on where it was.
    const carried = new TranscriptLedger(JSON.parse(JSON.stringify(ledger.state())));
    expect(transcriptOf(carried, stored, conversation)).toEqual(all);
  });

  it("a failed archive keeps the conversation whole this turn; the next compaction archives it all", async () => {
    const ledger = new TranscriptLedger();
    const { archiver, stored, problems } = memoryArchiver();
    const compactor = archivingCompactor(keepNewest(1), ledger, archiver);
    const conversation = [prompt("a"), prompt("b"), prompt("c")];
    archiver.fail = true;
    expect((await compactor.maybeCompact(conversation, ZERO_USAGE)).messages).toBe(conversation);
    expect(problems).toHaveLength(1);
    expect(ledger.compactions).toBe(0);
    archiver.fail = false;
    const compacted = (await compactor.maybeCompact(conversation, ZERO_USAGE)).messages;
    expect(compacted.map((message) => message.content)).toEqual(["[summary]", "c"]);
    expect(transcriptOf(ledger, stored, compacted)).toEqual(["a", "b", "c"]);
  });

  it("an abort while archiving is rethrown, not taken for a storage failure", async () => {
    const ledger = new TranscriptLedger();
    const { archiver, problems } = memoryArchiver();
    archiver.fail = true;
    const compactor = archivingCompactor(keepNewest(1), ledger, archiver);
    await expect(
      compactor.maybeCompact([prompt("a"), prompt("b"), prompt("c")], ZERO_USAGE, undefined, ABORTED),
    ).rejects.toThrow("storage down");
    expect(problems).toEqual([]);
  });

  it("two compactions with nothing gained in between store nothing the second time", async () => {
    const ledger = new TranscriptLedger();
    const { archiver, stored } = memoryArchiver();
    let calls = 0;
    const always: Compactor = {
      maybeCompact: (messages) => ({ messages: [...messages.slice(0, 1), prompt(`n${++calls}`)] }),
    };
    const compactor = archivingCompactor(always, ledger, archiver);
    const once = (await compactor.maybeCompact([prompt("a"), prompt("b")], ZERO_USAGE)).messages;
    await compactor.maybeCompact(once, ZERO_USAGE);
    expect(stored).toHaveLength(1);
    expect(ledger.segments).toHaveLength(1);
    expect(ledger.compactions).toBe(2);
  });

  it("dropping system messages keeps archivedCount on the same messages", () => {
    const ledger = new TranscriptLedger({ archivedCount: 3, segments: [], compactions: 1 });
    const system: Message = { role: "system", content: "sys" };
    const conversation = [prompt("s"), system, prompt("kept"), prompt("new"), system];
    const without = ledger.withoutSystemMessages(conversation);
    expect(without.map((message) => message.content)).toEqual(["s", "kept", "new"]);
    expect(ledger.pending(without).map((message) => message.content)).toEqual(["new"]);
    const plain = [prompt("x")];
    expect(ledger.withoutSystemMessages(plain)).toBe(plain);
  });

  it("malformed carried state starts from nothing instead of failing the session", () => {
    const ledger = new TranscriptLedger({ archivedCount: -2, segments: "x", compactions: 1.5 } as never);
    expect(ledger.state()).toEqual({ archivedCount: 0, segments: [], compactions: 0 });
  });

  it("the transcript query pages the unarchived tail, at least one message a page", () => {
    const ledger = new TranscriptLedger({
      archivedCount: 1,
      segments: [{ key: "k", count: 4, bytes: 9 }],
      compactions: 1,
    });
    const huge = prompt("y".repeat(TRANSCRIPT_PAGE_CHARS));
    const conversation = [prompt("[summary]"), prompt("a"), huge, prompt("b")];
    const first = transcriptPage(ledger, conversation);
    expect(first).toMatchObject({ from: 0, end: 1, total: 3, compactions: 1, segments: ledger.segments });
    expect(first.tail).toEqual([prompt("a")]);
    const second = transcriptPage(ledger, conversation, first.end);
    expect(second.tail).toEqual([huge]);
    expect(transcriptPage(ledger, conversation, second.end).tail).toEqual([prompt("b")]);
    expect(transcriptPage(ledger, conversation, 99)).toMatchObject({ from: 3, end: 3, tail: [] });
  });
});
