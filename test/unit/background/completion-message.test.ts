import { describe, expect, it } from "vitest";
import { backgroundCompletionMessage } from "../../../src/kernel/background/completion-message.js";
import type { BackgroundStatus } from "../../../src/kernel/background/types.js";

function render(status: BackgroundStatus, label = "npm test"): unknown {
  return backgroundCompletionMessage({
    id: "bg_0_abcdef",
    label,
    content: "line 1\nline 2",
    status,
    isError: false,
  }).content;
}

describe("backgroundCompletionMessage", () => {
  it("renders a completed task as a user message without a status attribute", () => {
    expect(
      backgroundCompletionMessage({
        id: "bg_0_abcdef",
        label: "npm test",
        content: "ok",
        status: "completed",
        isError: false,
      }),
    ).toEqual({
      role: "user",
      content:
        '<background-task-completed id="bg_0_abcdef" label="npm test">\nok\n</background-task-completed>',
    });
  });

  it.each([
    ["partial", "partial"],
    ["failed", "error"],
    ["cancelled", "cancelled"],
  ] as const)('renders status %s as status="%s"', (status, attribute) => {
    expect(render(status)).toBe(
      `<background-task-completed id="bg_0_abcdef" label="npm test" status="${attribute}">\n` +
        "line 1\nline 2\n</background-task-completed>",
    );
  });

  it("replaces double quotes in the label with single quotes", () => {
    expect(render("completed", 'echo "hi" > "out"')).toBe(
      `<background-task-completed id="bg_0_abcdef" label="echo 'hi' > 'out'">\nline 1\nline 2\n</background-task-completed>`,
    );
  });
});
