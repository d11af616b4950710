import { z } from "zod";
import { defineTool, type Tool } from "../../kernel/vocabulary/tools.js";
import { evaluateArithmetic } from "./arithmetic.js";
import { toolFailure } from "./tool-failure.js";

const schema = z.object({
  expression: z.string().describe("Arithmetic expression, e.g. '(1200 + 800) / 3' or 'round(8450 / 655, 2)'"),
});

/**
 * `calculate`: evaluates an arithmetic expression with a parser (never `eval`). It keeps the default retry
 * class, at-most-once, so the demo shows both classes side by side in the Temporal UI.
 */
export function calculateTool(): Tool<z.infer<typeof schema>> {
  return defineTool({
    name: "calculate",
    description:
      "Evaluates an arithmetic expression: numbers, + - * / %, ^ for powers, parentheses, and the functions " +
      "abs, sqrt, min, max, round(x, digits). Returns the number.",
    schema,
    security: { filesystem: "none", network: "none", sideEffects: false },
    execute(input) {
      try {
        return String(Number(evaluateArithmetic(input.expression).toFixed(10)));
      } catch (error) {
        return toolFailure(error);
      }
    },
  });
}
