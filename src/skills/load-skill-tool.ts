import { z } from "zod";
import { LOAD_SKILL_TOOL } from "../plan/skills-prompt.js";
import type { Tool } from "../kernel/vocabulary/tools.js";
import { loadSkills, type Skill } from "./load-skills.js";
import { skillFolderListing } from "./skill-folder-listing.js";

const schema = z.object({ name: z.string().min(1).describe("The name of the skill, as listed") });

/**
 * `load_skill {name}`: one skill's instructions as `<skill name="…">body</skill>` plus its folder's files (two levels).
 * Reads the folders at each call (edits show at once) and changes nothing, so durable runs retry it; an unknown name
 * is an error result listing the skills there are.
 */
export function loadSkillTool(dirs: readonly string[]): Tool<z.infer<typeof schema>> {
  return {
    name: LOAD_SKILL_TOOL,
    description:
      "Load the full instructions of one of your skills (listed in the system prompt) before you follow it.",
    schema,
    retry: "idempotent",
    security: { filesystem: "read", network: "none", sideEffects: false },
    execute({ name }) {
      const skills = loadSkills(dirs);
      const skill = skills.find((candidate) => candidate.name === name);
      if (!skill) {
        const known = skills.map((candidate) => candidate.name).join(", ") || "none";
        return { content: `Error: unknown skill '${name}'. Available skills: ${known}`, isError: true };
      }
      return renderSkill(skill);
    },
  };
}

/** A loaded skill as the model reads it. */
export function renderSkill(skill: Skill): string {
  const loaded = `<skill name="${skill.name}">\n${skill.body}\n</skill>`;
  const listing = skillFolderListing(skill.dir);
  if (listing === "") return loaded;
  return `${loaded}\n\nFiles in the skill's folder (${skill.dir}):\n${listing}`;
}
