import type { SkillSummary } from "../contract/agent-plan.js";

/** The name of the tool that loads a skill's instructions. */
export const LOAD_SKILL_TOOL = "load_skill";

/**
 * The system prompt of an agent with skills: its own prompt, then one line per skill (name and description) and how
 * to load one. Workflow-safe: the skill list comes from the plan (resolved on the worker and recorded in history),
 * so a replay builds the same prompt.
 */
export function systemWithSkills(system: string | undefined, skills: readonly SkillSummary[]): string {
  const lines = skills.map((skill) => `- ${skill.name}${skill.description ? `: ${skill.description}` : ""}`);
  const section = [
    `Skills you can use (call ${LOAD_SKILL_TOOL} with a skill's name to read its instructions before following it):`,
    ...lines,
  ].join("\n");
  return system ? `${system}\n\n${section}` : section;
}
