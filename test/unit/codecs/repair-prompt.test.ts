import { describe, expect, it } from "vitest";
import { CodecError } from "../../../src/kernel/vocabulary/errors.js";
import { defaultRepairPrompt, repairPrompt } from "../../../src/kernel/codecs/repair-prompt.js";
import type { ToolSpec } from "../../../src/kernel/vocabulary/tools.js";

const tools: ToolSpec[] = [
  { name: "echo", description: "Echoes", parameters: { type: "object" } },
  { name: "read_file", description: "Reads", parameters: { type: "object" } },
];

describe("repairPrompt", () => {
  it("is a user message that starts with the repair request and names the error, tools and attempt", () => {
    const message = repairPrompt(new CodecError("bad JSON"), 2, tools);
    expect(message.role).toBe("user");
    expect(message.content).toBe(
      "Repair the malformed tool-call response and try again (bad JSON). Available tools: echo, read_file. " +
        "Repair attempt 2.",
    );
  });

  it("says when no tools exist and inserts a format reminder before the attempt", () => {
    const message = repairPrompt(new CodecError("oops"), 1, [], "Use JSON.");
    expect(message.content).toBe(
      "Repair the malformed tool-call response and try again (oops). No tools are available. Use JSON. " +
        "Repair attempt 1.",
    );
  });

  it("is what the kernel falls back to as defaultRepairPrompt", () => {
    const error = new CodecError("x");
    expect(defaultRepairPrompt(error, 1, tools)).toEqual(repairPrompt(error, 1, tools));
  });
});
