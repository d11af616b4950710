import { z } from "zod";
import { AgentError } from "../vocabulary/errors.js";
import type { UserAnswer } from "../permission/types.js";
import type { Tool } from "../vocabulary/tools.js";

/** The name every runtime recognises the question tool by. */
export const ASK_USER_TOOL = "ask_user";

const schema = z.object({
  question: z.string().min(1).describe("The question for the user"),
  options: z.array(z.string()).optional().describe("Choices to offer, if any"),
  multiSelect: z.boolean().optional().describe("Whether several options may be chosen"),
});

/** How an answer reads to the model: the selected options joined by ", ", else the text, else `(no answer)`. */
export function renderAnswer(answer: UserAnswer): string {
  if (answer.selected && answer.selected.length > 0) return answer.selected.join(", ");
  if (answer.text !== undefined && answer.text.trim() !== "") return answer.text;
  return "(no answer)";
}

/**
 * `ask_user`: the model asks the user a question and waits for the answer. In-process it uses the agent's
 * `input` handler; in durable runs the question waits in the session (answered by update or signal).
 */
export function askUserTool(): Tool<z.infer<typeof schema>> {
  return {
    name: ASK_USER_TOOL,
    builtin: ASK_USER_TOOL,
    description:
      "Ask the user a question and wait for the answer. Use it when you need information only the user has.",
    schema,
    async execute(input, ctx) {
      if (!ctx.input) throw new AgentError("ask_user: this agent has no input handler to ask the user");
      const call = ctx.call ?? { id: "", name: ASK_USER_TOOL, input };
      const question = {
        question: input.question,
        ...(input.options ? { options: input.options } : {}),
        ...(input.multiSelect !== undefined ? { multiSelect: input.multiSelect } : {}),
      };
      ctx.emit({ type: "input_request", call, question });
      const answer = await ctx.input.request(question, { sessionId: ctx.sessionId, call });
      ctx.emit({ type: "input_resolved", id: call.id, answer });
      return renderAnswer(answer);
    },
  };
}
