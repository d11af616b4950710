import { describe, expect, it } from "vitest";
import { mcpResultOutput } from "../../../src/mcp/mcp-result-output.js";

describe("mcpResultOutput", () => {
  it("joins text blocks, one a line", () => {
    const content = [
      { type: "text", text: "first" },
      { type: "text", text: "second" },
    ];
    expect(mcpResultOutput({ content })).toBe("first\nsecond");
  });

  it("notes images and audio by type and decoded size instead of their base64", () => {
    const content = [
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      { type: "audio", mimeType: "audio/wav", data: "UklGRg==" },
    ];
    expect(mcpResultOutput({ content })).toBe(
      "[image image/png, 8 bytes, not shown]\n[audio audio/wav, 4 bytes, not shown]",
    );
  });

  it("shows an embedded text resource with its URI, and notes a binary one and a resource link", () => {
    const content = [
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hello" } },
      {
        type: "resource",
        resource: { uri: "file:///a.bin", mimeType: "application/octet-stream", blob: "AAAA" },
      },
      { type: "resource_link", uri: "file:///b.md", name: "b.md", description: "the notes" },
    ];
    expect(mcpResultOutput({ content })).toBe(
      "[resource <file:///a.txt>]\nhello\n" +
        "[resource <file:///a.bin> application/octet-stream, 3 bytes, not shown]\n" +
        "[resource link: b.md <file:///b.md>] the notes",
    );
  });

  it("uses structured content when there is no content block, and the legacy toolResult form", () => {
    expect(mcpResultOutput({ content: [], structuredContent: { sum: 5 } })).toBe('{"sum":5}');
    expect(mcpResultOutput({ toolResult: [1, 2] })).toBe("[1,2]");
  });

  it("prefers the content blocks to structured content (servers put the same data in text)", () => {
    expect(
      mcpResultOutput({ content: [{ type: "text", text: '{"sum":5}' }], structuredContent: { sum: 5 } }),
    ).toBe('{"sum":5}');
  });

  it("makes isError an error result, and says so when a result is empty", () => {
    expect(mcpResultOutput({ content: [{ type: "text", text: "no such file" }], isError: true })).toEqual({
      content: "no such file",
      isError: true,
    });
    expect(mcpResultOutput({ content: [] })).toBe("(no content)");
  });

  it("notes a block of a type it does not know", () => {
    expect(mcpResultOutput({ content: [{ type: "video", data: "..." }] })).toBe("[video content, not shown]");
  });
});
