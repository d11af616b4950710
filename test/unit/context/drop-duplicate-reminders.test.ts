import { describe, expect, it } from "vitest";
import { createContextEngine } from "../../../src/kernel/context/context-engine.js";
import { dropDuplicateReminders } from "../../../src/kernel/context/edits/drop-duplicate-reminders.js";
import { flattenSegments, splitSegments } from "../../../src/kernel/context/edits/working-segments.js";
import { assistant, fakePorts, text, user } from "./fixtures.js";

const reminder = "<system-reminder>Current tasks: none</system-reminder>";
const note = '<background-task-completed id="bg_1" label="build">\nok\n</background-task-completed>';

describe("L2 drop duplicate reminders", () => {
  it("keeps the first of identical reminder and background notes and drops the rest", () => {
    const messages = [
      user("goal"),
      user(reminder),
      assistant("a"),
      user(note),
      user(reminder),
      user(note),
      user("go"),
    ];
    const out = flattenSegments(dropDuplicateReminders(splitSegments(messages))).messages;
    expect(out).toEqual([user("goal"), user(reminder), assistant("a"), user(note), user("go")]);
  });

  it("keeps repeated ordinary user messages and different reminders", () => {
    const other = "<system-reminder>Current tasks: one</system-reminder>";
    const messages = [user("again"), user("again"), user(reminder), user(other)];
    const out = flattenSegments(dropDuplicateReminders(splitSegments(messages))).messages;
    expect(out).toEqual(messages);
  });

  it("runs in the engine above 75% but not at 70%", async () => {
    const base = [user("goal"), user(reminder), user(reminder), assistant("")];
    const sized = (fraction: number) => {
      const messages = [...base];
      messages[3] = assistant(text(Math.round(fraction * 4000) - 4 - 2 * reminder.length));
      return messages;
    };
    const ports = fakePorts().ports;
    const at70 = await createContextEngine({ sessionId: "s", ports, windowTokens: 1000 }).prepare(sized(0.7));
    expect(at70.status.level).toBe(1);
    expect(at70.messages.filter((message) => message.content === reminder)).toHaveLength(2);
    const at80 = await createContextEngine({ sessionId: "s", ports, windowTokens: 1000 }).prepare(sized(0.8));
    expect(at80.status.level).toBe(2);
    expect(at80.messages.filter((message) => message.content === reminder)).toHaveLength(1);
  });
});
