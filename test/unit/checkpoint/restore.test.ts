import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, type Agent } from "../../../src/agent.js";
import { fileCheckpointer } from "../../../src/checkpoint/file-checkpointer.js";
import { memoryCheckpointer } from "../../../src/kernel/checkpoint/memory-checkpointer.js";
import { nativeCodec } from "../../../src/kernel/codecs/native-codec.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import type { Checkpointer } from "../../../src/kernel/vocabulary/session-events.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";

let workdir: string;
beforeEach(() => {
  workdir = mkdtempSync(path.join(tmpdir(), "restore-"));
});
afterEach(() => rmSync(workdir, { recursive: true, force: true }));

/** Writes a file (text, or bytes given as base64), recording its content before the change. */
const writeTool = () =>
  defineTool({
    name: "write",
    description: "Writes a file",
    schema: z.object({ path: z.string(), text: z.string().optional(), base64: z.string().optional() }),
    execute: (input, ctx) => {
      const file = path.join(workdir, input.path);
      const binary = input.base64 !== undefined;
      const before = existsSync(file) ? readFileSync(file).toString(binary ? "base64" : "utf8") : null;
      ctx.recordSnapshot?.(input.path, before, false, binary ? "base64" : "utf8");
      writeFileSync(file, binary ? Buffer.from(input.base64!, "base64") : input.text!);
      return `wrote ${input.path}`;
    },
  });

const BYTES_1 = Buffer.from([0, 255, 1, 254]).toString("base64");
const BYTES_2 = Buffer.from([9, 9, 9]).toString("base64");

/** Two prompts: the first creates a.txt and b.bin; the second changes both and creates c.txt. */
async function twoPrompts(checkpointer: Checkpointer): Promise<Agent> {
  const model = fakeProvider([
    toolCallTurn([
      { id: "w1", name: "write", input: { path: "a.txt", text: "v1" } },
      { id: "w2", name: "write", input: { path: "b.bin", base64: BYTES_1 } },
    ]),
    textTurn("first done"),
    toolCallTurn([
      { id: "w3", name: "write", input: { path: "a.txt", text: "v2" } },
      { id: "w4", name: "write", input: { path: "b.bin", base64: BYTES_2 } },
      { id: "w5", name: "write", input: { path: "c.txt", text: "new" } },
    ]),
    toolCallTurn([{ id: "w6", name: "write", input: { path: "a.txt", text: "v3" } }]),
    textTurn("second done"),
    textTurn("after the restore"),
  ]);
  const agent = createAgent({
    model,
    codec: nativeCodec(),
    tools: [writeTool()],
    checkpointer,
    maxParallelTools: 1,
  });
  await agent.send("create a and b", { sessionId: "s" });
  await agent.send("change them", { sessionId: "s" });
  return agent;
}

const read = (file: string) => readFileSync(path.join(workdir, file));

describe("listCheckpoints and restore (in-process, with a checkpointer)", () => {
  for (const [name, make] of [
    ["memory", () => memoryCheckpointer({ now: Date.now })],
    ["file", () => fileCheckpointer({ dir: path.join(workdir, ".sessions") })],
  ] as const) {
    it(`${name} checkpointer: lists each prompt with its seq and time`, async () => {
      const agent = await twoPrompts(make());
      const checkpoints = await agent.listCheckpoints("s");
      expect(checkpoints.map(({ seq, prompt }) => ({ seq, prompt }))).toEqual([
        { seq: 1, prompt: "create a and b" },
        { seq: expect.any(Number), prompt: "change them" },
      ]);
      expect(checkpoints[1]!.seq).toBeGreaterThan(1);
      for (const checkpoint of checkpoints) expect(Number.isNaN(Date.parse(checkpoint.ts))).toBe(false);
    });

    it(`${name} checkpointer: restoring before a prompt reverts its files (binary too) and drops it from the conversation`, async () => {
      const checkpointer = make();
      const agent = await twoPrompts(checkpointer);
      expect(read("a.txt").toString()).toBe("v3");
      const [, second] = await agent.listCheckpoints("s");

      const result = await agent.restore("s", second!.seq - 1, { workdir });
      // The earliest snapshot after the point wins: a.txt is v1 (not v2, its state before the later write).
      expect(read("a.txt").toString()).toBe("v1");
      expect(read("b.bin").toString("base64")).toBe(BYTES_1);
      expect(existsSync(path.join(workdir, "c.txt"))).toBe(false);
      expect(result).toEqual({ reverted: ["a.txt", "b.bin", "c.txt"], skipped: [] });
      expect(await checkpointer.head("s")).toBe(second!.seq - 1);
      expect((await agent.listCheckpoints("s")).map((checkpoint) => checkpoint.prompt)).toEqual([
        "create a and b",
      ]);

      // The next run goes on from the restored conversation.
      const next = await agent.send("again", { sessionId: "s" });
      expect(next.messages.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
    });
  }

  it("restores files only, or the conversation only", async () => {
    const checkpointer = memoryCheckpointer();
    const agent = await twoPrompts(checkpointer);
    const head = await checkpointer.head("s");
    await agent.restore("s", 0, { conversation: false, workdir });
    expect(existsSync(path.join(workdir, "a.txt"))).toBe(false);
    expect(await checkpointer.head("s")).toBe(head);

    writeFileSync(path.join(workdir, "a.txt"), "kept");
    await agent.restore("s", 0, { files: false, workdir });
    expect(read("a.txt").toString()).toBe("kept");
    expect(await checkpointer.head("s")).toBe(0);
  });

  it("leaves a file whose snapshot was cut short, and says so", async () => {
    const checkpointer = memoryCheckpointer();
    await checkpointer.append("s", [
      { type: "file_snapshot", path: "big.txt", before: "partial", truncated: true, turn: 1 },
    ]);
    writeFileSync(path.join(workdir, "big.txt"), "now");
    const agent = createAgent({ model: fakeProvider([]), codec: nativeCodec(), checkpointer });
    expect(await agent.restore("s", 0, { workdir })).toEqual({ reverted: [], skipped: ["big.txt"] });
    expect(read("big.txt").toString()).toBe("now");
  });

  it("refuses a seq out of range, an agent without a checkpointer, and one that cannot truncate", async () => {
    const agent = await twoPrompts(memoryCheckpointer());
    await expect(agent.restore("s", 99, { workdir })).rejects.toThrow(
      /restore: 'toSeq' must be a whole number from 0 to \d+ \(got 99\)/,
    );
    await expect(agent.restore("s", -1)).rejects.toThrow("(got -1)");
    const bare = createAgent({ model: fakeProvider([]), codec: nativeCodec() });
    await expect(bare.listCheckpoints("s")).rejects.toThrow(
      "listCheckpoints: this agent has no checkpointer",
    );
    const { truncate: _truncate, ...appendOnly } = memoryCheckpointer();
    const noTruncate = createAgent({
      model: fakeProvider([]),
      codec: nativeCodec(),
      checkpointer: appendOnly,
    });
    await expect(noTruncate.restore("s", 0)).rejects.toThrow("this checkpointer cannot truncate a session");
    await expect(noTruncate.restore("s", 0, { conversation: false })).resolves.toEqual({
      reverted: [],
      skipped: [],
    });
  });
});
