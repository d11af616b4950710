import { describe, expect, it } from "vitest";
import { spawnServerProcess } from "../../../src/dev-server/server-process.js";

describe("spawnServerProcess: what a failed server said", () => {
  it("keeps its first lines and its last: the cause, printed before a long stack trace, is not lost", async () => {
    // A server that says why it fails, then panics with a trace far longer than the kept tail.
    const script = [
      'console.error("bind: address already in use");',
      'for (let i = 1; i <= 200; i++) console.error("frame " + i);',
      "process.exit(2);",
    ].join("");
    const server = spawnServerProcess({ file: process.execPath, args: ["-e", script], graceMs: 1_000 });
    const exit = await server.exited;
    expect(exit.code).toBe(2);
    const excerpt = server.outputExcerpt();
    expect(excerpt).toMatch(/^bind: address already in use$/m);
    expect(excerpt).toMatch(/^frame 200$/m);
    expect(excerpt).toMatch(/^… \(\d+ lines\)$/m);
    expect(excerpt).not.toMatch(/^frame 100$/m);
  });
});
