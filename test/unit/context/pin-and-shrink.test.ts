import { describe, expect, it } from "vitest";
import { createContextEngine } from "../../../src/kernel/context/context-engine.js";
import { SHRINK_OLDER_CHARS } from "../../../src/kernel/context/edits/context-levels.js";
import { PINNED_FACTS_HEADER } from "../../../src/kernel/context/edits/pinned-facts.js";
import type { Message } from "../../../src/kernel/vocabulary/messages.js";
import { assistant, call, clone, fakePorts, recorder, result, text, user } from "./fixtures.js";

const goal = "Migrate the billing service to the new queue.";
const older: Message[] = [
  user(goal),
  call("c1", { path: "a.ts", content: text(2000, "w") }),
  result("c1", text(2000, "r")),
  assistant(text(2000, "o")),
  user("Thanks. You must never touch the production database. 不要修改测试数据。"),
  assistant(text(1000, "m")),
];
const active: Message[] = [
  user("Now run the migration."),
  call("c2", { path: "b.ts", content: text(3000, "v") }),
  result("c2", text(3000, "s")),
];

describe("L4 pinned facts and shrinking", () => {
  it("puts the facts first, shrinks older segments to 768 chars and keeps the active segment byte-identical", async () => {
    const input = [...older, ...active];
    const before = clone(input);
    const engine = createContextEngine({ sessionId: "s", ports: fakePorts().ports, windowTokens: 1_000_000 });
    const prepared = await engine.compact("manual", input);
    expect(prepared.status).toMatchObject({ level: 4, reason: "manual", retry: false });
    const [facts, ...rest] = prepared.messages;
    expect(facts).toEqual(
      user(
        `${PINNED_FACTS_HEADER}\n- goal: ${goal}\n- constraint: You must never touch the production database.\n` +
          "- constraint: 不要修改测试数据。",
      ),
    );
    expect(JSON.stringify(rest.slice(-3))).toBe(JSON.stringify(active));
    const olderOut = JSON.stringify(rest.slice(0, -3));
    expect(olderOut).not.toContain(text(SHRINK_OLDER_CHARS + 1, "r"));
    expect(olderOut).not.toContain(text(SHRINK_OLDER_CHARS + 1, "w"));
    expect(olderOut).toContain("chars omitted");
    expect(input).toEqual(before);
  });

  it("runs on pressure above 95% and reports the shrunk segments in the view", async () => {
    const { record, events } = recorder();
    const engine = createContextEngine({
      sessionId: "s",
      ports: fakePorts().ports,
      windowTokens: 2900,
      record,
    });
    const prepared = await engine.prepare([...older, ...active]);
    expect(prepared.status.level).toBe(4);
    expect(prepared.status.afterTokens).toBeLessThan(prepared.status.beforeTokens);
    const event = events[0];
    if (event?.type !== "context_view") throw new Error("expected a context_view");
    expect(event.view.segments.map(({ id, state, start, end }) => ({ id, state, start, end }))).toEqual([
      { id: "facts", state: "pinned", start: 0, end: 1 },
      { id: "seg-0", state: "shrunk", start: 1, end: 5 },
      { id: "seg-4", state: "shrunk", start: 5, end: 7 },
      { id: "seg-6", state: "raw", start: 7, end: 10 },
    ]);
  });
});
