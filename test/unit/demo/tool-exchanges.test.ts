import { describe, expect, it } from "vitest";
import { toolExchanges } from "../../../src/demo/tool-exchanges.js";
import {
  assistantMessage,
  textBlock,
  toolCallBlock,
  toolResultBlock,
} from "../../../src/kernel/vocabulary/messages.js";

describe("toolExchanges", () => {
  it("pairs each call with its result by id, in call order, and leaves pending calls without a result", () => {
    const exchanges = toolExchanges([
      { role: "user", content: "hi" },
      assistantMessage([
        textBlock("looking"),
        toolCallBlock("a", "list_files", { path: "." }),
        toolCallBlock("b", "read_file", { path: "x" }),
      ]),
      {
        role: "user",
        content: [toolResultBlock("b", "no such file", true), toolResultBlock("a", "x (1 bytes)")],
      },
      assistantMessage([toolCallBlock("c", "calculate", { expression: "1+1" })]),
    ]);
    expect(exchanges).toEqual([
      { id: "a", name: "list_files", input: { path: "." }, result: "x (1 bytes)" },
      { id: "b", name: "read_file", input: { path: "x" }, result: "no such file", isError: true },
      { id: "c", name: "calculate", input: { expression: "1+1" } },
    ]);
  });
});
