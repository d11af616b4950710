import type { Usage } from "./model.js";

/** Prices of one model, in a currency of your choice per million tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * What a run may spend: tokens (input + output) and, with a price for the model, cost; per run, and per session
 * counting what the session spent before this run (`spent`). Checked before each model call: a run over a limit ends
 * with stop reason `budget` and a `budget_exceeded` event (the call that crossed it has already happened).
 */
export interface RunBudget {
  maxRunTokens?: number;
  maxSessionTokens?: number;
  maxRunCost?: number;
  maxSessionCost?: number;
  /** The price of the run's model; without one, cost limits cannot apply. */
  price?: ModelPrice;
  /** What the session spent before this run. */
  spent?: Usage;
}

/** Which limit a run reached, and where it stood. */
export interface BudgetOverrun {
  limit: "run_tokens" | "session_tokens" | "run_cost" | "session_cost";
  used: number;
  max: number;
}

/** An overrun in words: `session tokens 450 of 400`. */
export function describeOverrun({ limit, used, max }: BudgetOverrun): string {
  return `${limit.replace("_", " ")} ${used} of ${max}`;
}

/** Tokens of a usage: input plus output. */
export function usageTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** The cost of a usage at a price (rounded to millionths). */
export function usageCost(usage: Usage, price: ModelPrice): number {
  const cost =
    (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1e6;
  return Math.round(cost * 1e6) / 1e6;
}

/** The first limit the run has reached, if any. */
export function budgetOverrun(budget: RunBudget, run: Usage): BudgetOverrun | undefined {
  const spent = budget.spent ?? { inputTokens: 0, outputTokens: 0 };
  const session = {
    inputTokens: spent.inputTokens + run.inputTokens,
    outputTokens: spent.outputTokens + run.outputTokens,
  };
  const checks: [BudgetOverrun["limit"], number | undefined, () => number][] = [
    ["run_tokens", budget.maxRunTokens, () => usageTokens(run)],
    ["session_tokens", budget.maxSessionTokens, () => usageTokens(session)],
    ["run_cost", budget.price && budget.maxRunCost, () => usageCost(run, budget.price!)],
    ["session_cost", budget.price && budget.maxSessionCost, () => usageCost(session, budget.price!)],
  ];
  for (const [limit, max, used] of checks) {
    if (max === undefined) continue;
    const value = used();
    if (value >= max) return { limit, used: value, max };
  }
  return undefined;
}
