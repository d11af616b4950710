import type { SkillDiagnostic } from "../contract/agent-plan.js";
import type { AgentEvent } from "../kernel/vocabulary/events.js";
import type { Middleware } from "../kernel/middleware/middleware.js";

/** The `diagnostic` code of a skill file left out of a run's skills because it could not be read or parsed. */
export const SKILL_SKIPPED_CODE = "skill_skipped";

/** The `diagnostic` that says one skill file was left out, naming the file and the error. */
export function skillSkippedDiagnostic(skipped: SkillDiagnostic): AgentEvent {
  return {
    type: "diagnostic",
    level: "warning",
    code: SKILL_SKIPPED_CODE,
    message: `skill file ${skipped.file} was skipped: ${skipped.error}`,
  };
}

/**
 * A layer that emits one `skill_skipped` diagnostic per left-out file when a run starts; none without any. The same
 * in both drivers; workflow-safe, as the list comes from the plan (recorded with the resolveAgent activity's result).
 */
export function skillDiagnostics(skipped: readonly SkillDiagnostic[] | undefined): Middleware[] {
  if (!skipped?.length) return [];
  return [
    {
      name: "skill-diagnostics",
      beforeAgent(ctx) {
        for (const entry of skipped) ctx.emit(skillSkippedDiagnostic(entry));
      },
    },
  ];
}
