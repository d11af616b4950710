import { describe, expect, it } from "vitest";
import {
  ASK_USER_TOOL,
  askUserTool,
  createAgent,
  defineAgent,
  fakeProvider,
  localAgentConfig,
  renderAnswer,
  type InputHandler,
  type UserQuestion,
} from "../../src/index.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";

describe("questions from the public entry point", () => {
  it("askUserTool in a definition plus an input handler is all it takes to let the model ask", async () => {
    const asked: UserQuestion[] = [];
    const input: InputHandler = {
      request: (question) => (asked.push(question), { selected: ["blue"] }),
    };
    const agent = defineAgent({ name: "asker", model: "m", tools: [askUserTool()] });
    const model = fakeProvider([
      toolCallTurn([
        { id: "q", name: ASK_USER_TOOL, input: { question: "Colour?", options: ["red", "blue"] } },
      ]),
      textTurn("blue it is"),
    ]);
    const result = await createAgent(localAgentConfig(agent, model, { input })).send("pick");
    expect(asked).toEqual([{ question: "Colour?", options: ["red", "blue"] }]);
    expect(model.requests[1]!.messages.at(-1)!.content).toEqual([
      { type: "tool_result", id: "q", content: "blue" },
    ]);
    expect(result.text).toBe("blue it is");
  });

  it("renderAnswer reads an answer as the seed does", () => {
    expect(renderAnswer({ selected: ["a", "b"] })).toBe("a, b");
    expect(renderAnswer({ text: "free" })).toBe("free");
    expect(renderAnswer({})).toBe("(no answer)");
  });
});
