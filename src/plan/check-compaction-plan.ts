import type { CompactionPlan } from "../contract/agent-plan.js";

const LLM_ONLY = ["keepRecentTurns", "summaryModel", "summaryPrompt", "maxFailures"] as const;
const DEFAULT_ONLY = ["maxMessages", "keepRecentToolResults"] as const;
const KNOWN: ReadonlySet<string> = new Set<string>([
  "strategy",
  "tokenThreshold",
  ...LLM_ONLY,
  ...DEFAULT_ONLY,
]);
const COUNTS = ["keepRecentTurns", "maxFailures", "maxMessages", "keepRecentToolResults"] as const;

/**
 * What is wrong with a compaction plan, or undefined when it is usable. A plan travels as data (and a definition
 * may come from a config file), so every field is checked, and a field of the other strategy is refused rather
 * than silently ignored.
 */
export function checkCompactionPlan(plan: unknown): string | undefined {
  if (typeof plan !== "object" || plan === null || Array.isArray(plan))
    return "must be an object like { strategy: 'llm' }";
  const fields = plan as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !KNOWN.has(key));
  if (unknown !== undefined) return `has an unknown field '${unknown}'`;
  if (fields.strategy !== "default" && fields.strategy !== "llm")
    return `'strategy' must be 'default' or 'llm', not ${JSON.stringify(fields.strategy)}`;
  const foreign = fields.strategy === "llm" ? DEFAULT_ONLY : LLM_ONLY;
  const misplaced = foreign.find((key) => fields[key] !== undefined);
  if (misplaced !== undefined) return `'${misplaced}' does not apply to the '${fields.strategy}' strategy`;
  const threshold = fields.tokenThreshold;
  if (
    threshold !== undefined &&
    !(typeof threshold === "number" && Number.isFinite(threshold) && threshold >= 0)
  )
    return "'tokenThreshold' must be a number of tokens, 0 or more";
  const count = COUNTS.find((key) => fields[key] !== undefined && !isCount(fields[key]));
  if (count !== undefined) return `'${count}' must be a whole number, 0 or more`;
  return checkSummaryFields(fields as Partial<CompactionPlan>);
}

function checkSummaryFields(plan: Partial<CompactionPlan>): string | undefined {
  if (plan.summaryModel !== undefined && (typeof plan.summaryModel !== "string" || plan.summaryModel === ""))
    return "'summaryModel' must be a model id";
  if (
    plan.summaryPrompt !== undefined &&
    (typeof plan.summaryPrompt !== "string" || plan.summaryPrompt.trim() === "")
  )
    return "'summaryPrompt' must be a non-empty text";
  return undefined;
}

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
