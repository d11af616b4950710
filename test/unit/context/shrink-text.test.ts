import { describe, expect, it } from "vitest";
import { shrinkMessage, shrinkText } from "../../../src/kernel/context/edits/shrink-text.js";
import { memoryContextArchive } from "../../../src/kernel/context/memory-context-archive.js";
import { call, text, user } from "./fixtures.js";

describe("shrinkText", () => {
  it("keeps text within the limit and otherwise the head and tail with a marker", () => {
    expect(shrinkText("short", 10)).toBe("short");
    const long = `${text(500, "h")}${text(500, "t")}`;
    const shrunk = shrinkText(long, 100);
    expect(shrunk).toBe(`${text(75, "h")}\n[… 900 chars omitted …]\n${text(25, "t")}`);
  });

  it("never splits a surrogate pair", () => {
    const shrunk = shrinkText("😀".repeat(100), 11);
    expect(shrunk).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe("shrinkMessage", () => {
  it("returns the same message when nothing is too long", () => {
    const message = user("hello");
    expect(shrinkMessage(message, 10)).toBe(message);
  });

  it("shrinks the string leaves of tool-call inputs and keeps the object shape", () => {
    const shrunk = shrinkMessage(call("c1", { path: "a.ts", lines: [text(50)], n: 3 }), 10);
    const block = (
      shrunk.content as { type: string; input: { path: string; lines: string[]; n: number } }[]
    )[0]!;
    expect(block.input.path).toBe("a.ts");
    expect(block.input.n).toBe(3);
    expect(block.input.lines[0]).toContain("chars omitted");
  });
});

describe("memoryContextArchive", () => {
  it("gives the same content the same ref and reads it back", () => {
    const archive = memoryContextArchive();
    const ref = archive.put("payload");
    expect(archive.put("payload")).toBe(ref);
    expect(ref).toMatch(/^ctx_[0-9a-f]{16}$/);
    expect(archive.get(ref)).toBe("payload");
    expect(archive.get("ctx_missing")).toBeUndefined();
  });
});
