import { z } from "zod";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { fakeProvider, type FakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";

/** How many tool results a request's conversation holds (user messages with a tool_result block). */
export function toolResultCount(request: ModelRequest): number {
  return request.messages.filter(
    (message) =>
      Array.isArray(message.content) && message.content.some((block) => block.type === "tool_result"),
  ).length;
}

/** Options of {@link toolLoopModel}. */
export interface ToolLoopModelOptions {
  /** The tool called on every turn, with `{ n }`: the number of results so far. */
  tool: string;
  /** Answers once the conversation holds this many results. */
  calls: number;
  /** The final answer, from the number of results. */
  answer(results: number): string;
  /** Call ids are `<idPrefix><n>`. */
  idPrefix: string;
}

/**
 * A zero-latency scripted model decided by the request alone (so it gives the same answer wherever a run resumes):
 * calls `tool` until the conversation holds `calls` results, then answers.
 */
export function toolLoopModel(options: ToolLoopModelOptions): FakeProvider {
  return fakeProvider(
    [
      (request) => {
        const results = toolResultCount(request);
        if (results >= options.calls) return textTurn(options.answer(results));
        return toolCallTurn([
          { id: `${options.idPrefix}${results}`, name: options.tool, input: { n: results } },
        ]);
      },
    ],
    { onExhausted: "repeat-last" },
  );
}

/** A tool `page` that returns page `n`: its number, a colon, then `size` characters. */
export function pageTool(size: number) {
  const body = "p".repeat(size);
  return defineTool({
    name: "page",
    description: `returns the next ${size}-character page`,
    schema: z.object({ n: z.number() }),
    execute: ({ n }) => `${n}:${body}`,
  });
}

/** Reads pages with {@link pageTool} until it has read `turns - 1`, then answers `read <n> pages`. */
export function pageReader(turns: number): FakeProvider {
  return toolLoopModel({ tool: "page", calls: turns - 1, answer: (n) => `read ${n} pages`, idPrefix: "p-" });
}
