import { codecFor } from "../kernel/codecs/codec-for.js";
import type { ContextProposal } from "../kernel/context/types.js";
import { EffectNotImplementedError, type EffectRunner } from "../kernel/vocabulary/effects.js";
import type { ContextOptions, KernelConfig } from "../kernel/loop/kernel-config.js";
import { NEVER_ABORTED } from "../kernel/vocabulary/ports.js";
import type { AgentPlan, ContextPlan } from "../contract/agent-plan.js";
import { systemWithSkills } from "./skills-prompt.js";

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
  | "backgroundLimits"
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
  "backgroundLimits",
] as const;

/**
 * Maps a plan onto the kernel's settings (model, codec, limits, sampling, ContextEngine, the skills in the system
 * prompt). The ContextEngine's planner, when the plan names one, runs through `effects` (the driver's: direct
 * in-process, activities durably).
 */
export function planSettings(plan: AgentPlan, effects?: EffectRunner): PlanSettings {
  const settings: PlanSettings = {
    modelName: plan.model,
    codec: codecFor(plan.codec),
    maxTurns: plan.maxTurns,
    maxParallelTools: plan.maxParallelTools,
    maxDecodeRetries: plan.maxDecodeRetries,
  };
  for (const key of OPTIONAL_PLAN_FIELDS)
    if (plan[key] !== undefined) Object.assign(settings, { [key]: plan[key] });
  if (plan.context) settings.context = contextOptions(plan.context, effects);
  if (plan.skills?.length) settings.system = systemWithSkills(plan.system, plan.skills);
  return settings;
}

/** The kernel's ContextEngine options of a plan: its planner effect becomes a planner that calls it. */
function contextOptions(context: ContextPlan, effects: EffectRunner | undefined): ContextOptions {
  const { planner, ...rest } = context;
  if (!planner) return rest;
  return {
    ...rest,
    planner: {
      async propose(input, signal) {
        if (!effects) throw new EffectNotImplementedError(planner.effect);
        const ctx = { sessionId: input.sessionId, signal: signal ?? NEVER_ABORTED };
        return (await effects(planner, input, ctx)) as ContextProposal;
      },
    },
  };
}
