import { codecFor } from "../kernel/codecs/codec-for.js";
import type { KernelConfig } from "../kernel/kernel-config.js";
import type { AgentPlan } from "./agent-plan.js";

/** The kernel settings a plan fixes, the same for in-process and durable runs. */
export type PlanSettings = Pick<
  KernelConfig,
  | "modelName"
  | "codec"
  | "maxTurns"
  | "maxParallelTools"
  | "maxDecodeRetries"
  | "system"
  | "maxTokens"
  | "temperature"
  | "topP"
  | "seed"
  | "stopSequences"
  | "toolChoice"
  | "context"
>;

/** The optional fields a definition, its plan and the kernel config share under the same names. */
export const OPTIONAL_PLAN_FIELDS = [
  "system",
  "maxTokens",
  "temperature",
  "topP",
  "seed",
  "stopSequences",
  "toolChoice",
  "context",
] as const;

/** Maps a plan onto the kernel's settings (model, codec, limits, sampling, ContextEngine). */
export function planSettings(plan: AgentPlan): PlanSettings {
  const settings: PlanSettings = {
    modelName: plan.model,
    codec: codecFor(plan.codec),
    maxTurns: plan.maxTurns,
    maxParallelTools: plan.maxParallelTools,
    maxDecodeRetries: plan.maxDecodeRetries,
  };
  for (const key of OPTIONAL_PLAN_FIELDS)
    if (plan[key] !== undefined) Object.assign(settings, { [key]: plan[key] });
  return settings;
}
