import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileCheckpointer } from "../../../src/checkpoint/file-checkpointer.js";
import { userMessage } from "../../../src/kernel/vocabulary/messages.js";
import type {
  Checkpointer,
  SessionEvent,
  StoredEvent,
} from "../../../src/kernel/vocabulary/session-events.js";
import { checkpointerConformance } from "../../../src/testing/checkpointer-conformance.js";

const note = (text: string): SessionEvent => ({ type: "user", message: userMessage(text) });

async function readAll(checkpointer: Checkpointer, id: string): Promise<StoredEvent[]> {
  const stored: StoredEvent[] = [];
  for await (const entry of checkpointer.read(id)) stored.push(entry);
  return stored;
}

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "file-checkpointer-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("fileCheckpointer conformance", () => {
  for (const check of checkpointerConformance) {
    it(check.name, () => check.run(() => fileCheckpointer({ dir: join(dir, "sessions") })));
  }
  it(`${checkpointerConformance[4]?.name} (durable)`, () =>
    checkpointerConformance[4]!.run(() => fileCheckpointer({ dir, durable: true })));
});

describe("fileCheckpointer", () => {
  it("writes one JSON line per event to <id>.jsonl", async () => {
    const checkpointer = fileCheckpointer({ dir });
    await checkpointer.append("s1", [note("a"), note("b")]);
    const lines = (await readFile(join(dir, "s1.jsonl"), "utf8")).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(JSON.parse(lines[1]!)).toMatchObject({ seq: 2, sessionId: "s1", parentSeq: 1, event: note("b") });
  });

  it("keeps the log across instances, continuing the numbering", async () => {
    await fileCheckpointer({ dir }).append("s", [note("a"), note("b")]);
    const reopened = fileCheckpointer({ dir });
    expect(await reopened.head("s")).toBe(2);
    expect(await reopened.append("s", [note("c")], 2)).toBe(3);
    expect((await readAll(fileCheckpointer({ dir }), "s")).map((entry) => entry.event)).toEqual(
      ["a", "b", "c"].map(note),
    );
  });

  it("drops a partial last record and rewrites the file when repairTail is on (the default)", async () => {
    await fileCheckpointer({ dir }).append("s", [note("a"), note("b")]);
    const file = join(dir, "s.jsonl");
    const intact = await readFile(file, "utf8");
    await writeFile(file, intact + '{"seq":3,"sessionId":"s","parentS');
    const checkpointer = fileCheckpointer({ dir });
    expect((await readAll(checkpointer, "s")).map((entry) => entry.seq)).toEqual([1, 2]);
    expect(await readFile(file, "utf8")).toBe(intact);
    expect(await checkpointer.append("s", [note("c")])).toBe(3);
    expect((await readAll(fileCheckpointer({ dir }), "s")).map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it("fails with the file and line of a corrupt last record when repairTail is off", async () => {
    await fileCheckpointer({ dir }).append("s", [note("a")]);
    const file = join(dir, "s.jsonl");
    await writeFile(file, (await readFile(file, "utf8")) + "{not json\n");
    const checkpointer = fileCheckpointer({ dir, repairTail: false });
    await expect(readAll(checkpointer, "s")).rejects.toThrow(`Corrupt checkpoint record at ${file}:2`);
    await expect(checkpointer.append("s", [note("b")])).rejects.toThrow(`${file}:2`);
    expect(await readFile(file, "utf8")).toContain("{not json");
  });

  it("never drops a corrupt record that is not the last one, even with repairTail", async () => {
    await fileCheckpointer({ dir }).append("s", [note("a"), note("b")]);
    const file = join(dir, "s.jsonl");
    const [first, second] = (await readFile(file, "utf8")).split("\n");
    await writeFile(file, `${first}\ngarbage\n${second}\n`);
    await expect(readAll(fileCheckpointer({ dir }), "s")).rejects.toThrow(`${file}:2`);
  });

  it("treats a record that breaks the seq chain as corrupt", async () => {
    await fileCheckpointer({ dir }).append("s", [note("a")]);
    const file = join(dir, "s.jsonl");
    const record = JSON.parse((await readFile(file, "utf8")).trim()) as StoredEvent;
    await writeFile(file, `${JSON.stringify(record)}\n${JSON.stringify({ ...record, seq: 5 })}\n`);
    await expect(readAll(fileCheckpointer({ dir, repairTail: false }), "s")).rejects.toThrow(
      "seq 5 does not follow 1",
    );
  });

  it("adds the missing newline after a complete last record before appending", async () => {
    await fileCheckpointer({ dir }).append("s", [note("a")]);
    const file = join(dir, "s.jsonl");
    await writeFile(file, (await readFile(file, "utf8")).trimEnd());
    await fileCheckpointer({ dir }).append("s", [note("b")]);
    expect((await readAll(fileCheckpointer({ dir }), "s")).map((entry) => entry.seq)).toEqual([1, 2]);
  });

  it("rejects session ids that could leave the directory, with a clear error", async () => {
    const checkpointer = fileCheckpointer({ dir });
    for (const id of ["../escape", "a/b", "a\\b", "..", ""]) {
      await expect(checkpointer.append(id, [note("x")]), id).rejects.toThrow(/Invalid session id/);
    }
    await expect(checkpointer.head("../x")).rejects.toThrow("must not contain a path separator");
    await expect(checkpointer.delete("..")).rejects.toThrow('must not contain ".."');
    expect(await readdir(dir)).toEqual([]);
  });

  it("keeps other ids verbatim, so list() gives them back unchanged", async () => {
    const checkpointer = fileCheckpointer({ dir });
    await checkpointer.append("user:42 café", [note("x")]);
    expect((await checkpointer.list()).map((session) => session.id)).toEqual(["user:42 café"]);
  });

  it("truncates by rewriting the file, and the shorter log survives a reopen", async () => {
    const checkpointer = fileCheckpointer({ dir });
    await checkpointer.append("s", ["1", "2", "3", "4"].map(note));
    await checkpointer.truncate!("s", 2);
    expect(await checkpointer.head("s")).toBe(2);
    expect((await readFile(join(dir, "s.jsonl"), "utf8")).trim().split("\n")).toHaveLength(2);
    const reopened = fileCheckpointer({ dir });
    expect(await reopened.append("s", [note("new")])).toBe(3);
    expect((await readAll(reopened, "s")).map((entry) => entry.event)).toEqual([
      note("1"),
      note("2"),
      note("new"),
    ]);
  });

  it("does not create a file when truncating an unknown session", async () => {
    await fileCheckpointer({ dir }).truncate!("ghost", 0);
    expect(await readdir(dir)).toEqual([]);
  });

  it("deletes the file, and lists sessions by mtime, newest first, ignoring other files", async () => {
    const checkpointer = fileCheckpointer({ dir });
    await checkpointer.append("older", [note("a")]);
    await checkpointer.append("newer", [note("b")]);
    await checkpointer.append("gone", [note("c")]);
    await writeFile(join(dir, "notes.txt"), "not a session");
    await utimes(join(dir, "older.jsonl"), new Date(1_000_000), new Date(1_000_000));
    await utimes(join(dir, "newer.jsonl"), new Date(2_000_000), new Date(2_000_000));
    await checkpointer.delete("gone");
    expect(await readdir(dir)).not.toContain("gone.jsonl");
    expect(await checkpointer.list()).toEqual([
      { id: "newer", mtime: 2_000_000 },
      { id: "older", mtime: 1_000_000 },
    ]);
  });

  it("lists nothing when the directory does not exist yet", async () => {
    expect(await fileCheckpointer({ dir: join(dir, "missing") }).list()).toEqual([]);
  });

  it("stamps ts with the wall clock", async () => {
    const checkpointer = fileCheckpointer({ dir });
    await checkpointer.append("s", [note("a")]);
    const [stored] = await readAll(checkpointer, "s");
    expect(stored?.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
