import { describe, expect, it } from "vitest";
import { createContextEngine } from "../../../src/kernel/context/context-engine.js";
import {
  ARCHIVED_RESULT_PREFIX,
  EXTERNALIZED_RESULT_PREFIX,
  externalizeSeenResults,
} from "../../../src/kernel/context/edits/externalize-seen-results.js";
import { memoryContextArchive } from "../../../src/kernel/context/memory-context-archive.js";
import type { ContextArchive } from "../../../src/kernel/context/types.js";
import { splitSegments } from "../../../src/kernel/context/edits/working-segments.js";
import type { Message, ToolResultBlock } from "../../../src/kernel/vocabulary/messages.js";
import { assistant, call, clone, fakePorts, recorder, result, text, user } from "./fixtures.js";

function resultContents(messages: Message[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result") out[block.id] = block.content;
  }
  return out;
}

const seenBig = text(300, "a");
const unseenBig = text(300, "b");
const seenSmall = text(255, "c");
const conversation: Message[] = [
  user("goal"),
  call("c1"),
  result("c1", seenBig),
  call("c2"),
  result("c2", seenSmall),
  assistant("thinking about it"),
  call("c3"),
  result("c3", unseenBig),
];

describe("L1 externalise seen tool results", () => {
  it("archives only results of ≥256 chars that an assistant message followed", () => {
    const archive = memoryContextArchive();
    const out = externalizeSeenResults(splitSegments(conversation), { archive, memo: new Map() });
    const contents = resultContents(out.segments.flatMap((segment) => segment.messages));
    expect(out.refs).toHaveLength(1);
    const ref = out.refs[0]!;
    expect(contents.c1!.startsWith(`${ARCHIVED_RESULT_PREFIX}${ref}] `)).toBe(true);
    expect(archive.get(ref)).toBe(seenBig);
    expect(contents.c2).toBe(seenSmall);
    expect(contents.c3).toBe(unseenBig);
  });

  it("keeps a 160-char preview when there is no archive", () => {
    const out = externalizeSeenResults(splitSegments(conversation), { memo: new Map() });
    const content = resultContents(out.segments.flatMap((segment) => segment.messages)).c1!;
    expect(content.startsWith(EXTERNALIZED_RESULT_PREFIX)).toBe(true);
    expect(content).toContain(text(120, "a"));
    expect(content.length).toBeLessThan(EXTERNALIZED_RESULT_PREFIX.length + 160 + 40);
    expect(out.refs).toEqual([]);
  });

  it("keeps the tool_result id and error flag, and does not mutate the input", () => {
    const input: Message[] = [
      user("goal"),
      call("c1"),
      { role: "user", content: [{ type: "tool_result", id: "c1", content: seenBig, isError: true }] },
      assistant("ok"),
    ];
    const before = clone(input);
    const out = externalizeSeenResults(splitSegments(input), { memo: new Map() });
    const block = (out.segments[0]!.messages[2]!.content as ToolResultBlock[])[0]!;
    expect(block).toMatchObject({ type: "tool_result", id: "c1", isError: true });
    expect(input).toEqual(before);
  });

  it("puts each result into the archive once across passes", async () => {
    const puts: string[] = [];
    const inner = memoryContextArchive();
    const archive: ContextArchive = {
      put: (content) => (puts.push(content), inner.put(content)),
      get: inner.get,
    };
    const { record, events } = recorder();
    const engine = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      windowTokens: 200,
      archive,
      record,
    });
    const first = await engine.prepare(conversation);
    const second = await engine.prepare([...conversation, assistant("more")]);
    expect(puts).toEqual([seenBig, unseenBig]);
    expect(first.status.archiveRefs).toHaveLength(1);
    expect(second.status.archiveRefs).toHaveLength(2);
    expect(events).toHaveLength(2);
  });
});
