import { describe, expect, it } from "vitest";
import { memoryCheckpointer } from "../../../src/kernel/checkpoint/memory-checkpointer.js";
import { CheckpointConflictError } from "../../../src/kernel/vocabulary/errors.js";
import { userMessage, type Message } from "../../../src/kernel/vocabulary/messages.js";
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

describe("memoryCheckpointer conformance", () => {
  for (const check of checkpointerConformance) it(check.name, () => check.run(() => memoryCheckpointer()));
});

describe("memoryCheckpointer", () => {
  it("stamps ts from the injected clock, and the epoch by default", async () => {
    const clocked = memoryCheckpointer({ now: () => Date.UTC(2025, 0, 2, 3, 4, 5, 678) });
    await clocked.append("s", [note("a")]);
    expect((await readAll(clocked, "s"))[0]?.ts).toBe("2025-01-02T03:04:05.678Z");

    const unclocked = memoryCheckpointer();
    await unclocked.append("s", [note("a")]);
    expect((await readAll(unclocked, "s"))[0]?.ts).toBe("1970-01-01T00:00:00.000Z");
  });

  it("lists sessions by last modification, using the clock and then modification order", async () => {
    let time = 100;
    const checkpointer = memoryCheckpointer({ now: () => time });
    await checkpointer.append("old", [note("a")]);
    time = 200;
    await checkpointer.append("new", [note("b")]);
    expect(await checkpointer.list()).toEqual([
      { id: "new", mtime: 200 },
      { id: "old", mtime: 100 },
    ]);
    await checkpointer.append("old", [note("c")]); // same clock reading as "new": order of modification decides
    expect((await checkpointer.list()).map((session) => session.id)).toEqual(["old", "new"]);
  });

  it("puts the ids and heads on a conflict error", async () => {
    const checkpointer = memoryCheckpointer();
    await checkpointer.append("s", [note("a")]);
    const error = await checkpointer.append("s", [note("b")], 0).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CheckpointConflictError);
    expect(error).toMatchObject({ sessionId: "s", expected: 0, actual: 1 });
  });

  it("truncates after toSeq and continues numbering from there", async () => {
    const checkpointer = memoryCheckpointer();
    await checkpointer.append("s", ["1", "2", "3", "4"].map(note));
    await checkpointer.truncate!("s", 2);
    expect(await checkpointer.head("s")).toBe(2);
    expect(await checkpointer.append("s", [note("new")])).toBe(3);
    const stored = await readAll(checkpointer, "s");
    expect(stored.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(stored[2]?.event).toEqual(note("new"));
  });

  it("does not create a session when truncating an unknown one", async () => {
    const checkpointer = memoryCheckpointer();
    await checkpointer.truncate!("ghost", 0);
    expect(await checkpointer.list()).toEqual([]);
  });

  it("returns the head unchanged and creates nothing for an empty append", async () => {
    const checkpointer = memoryCheckpointer();
    expect(await checkpointer.append("s", [])).toBe(0);
    expect(await checkpointer.list()).toEqual([]);
  });

  it("stores copies, so mutating an appended or read message does not rewrite history", async () => {
    const checkpointer = memoryCheckpointer();
    const message: Message = userMessage("original");
    await checkpointer.append("s", [{ type: "user", message }]);
    message.content = "mutated after append";
    const [first] = await readAll(checkpointer, "s");
    if (first?.event.type === "user") first.event.message.content = "mutated after read";
    expect((await readAll(checkpointer, "s"))[0]?.event).toEqual(note("original"));
  });
});
