import type { RunBudget } from "../kernel/vocabulary/budget.js";
import type { Usage } from "../kernel/vocabulary/model.js";
import type { AgentPlan } from "../contract/agent-plan.js";

/** The kernel's budget for a run of a plan, with what the session spent before it (durable runs). */
export function planBudget(plan: AgentPlan, spent?: Usage): RunBudget | undefined {
  const budget = plan.budget;
  if (!budget) return undefined;
  const { prices, ...limits } = budget;
  const price = prices?.[plan.model];
  return { ...limits, ...(price ? { price } : {}), ...(spent ? { spent } : {}) };
}
