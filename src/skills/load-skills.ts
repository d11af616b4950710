import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { SkillSummary } from "../contract/agent-plan.js";
import { parseSkillFile } from "./skill-file.js";

/** The file that makes a folder a skill. */
export const SKILL_FILE = "SKILL.md";

/** A skill found on disk. */
export interface Skill extends SkillSummary {
  tags?: string[];
  /** The instructions (the `SKILL.md` body). */
  body: string;
  /** The skill's folder: its optional files live here. */
  dir: string;
}

/** Where an agent's skills are: folders searched for `SKILL.md` files, in order (a later folder's skill wins). */
export interface SkillsOption {
  dirs: string[];
}

/**
 * Loads every `SKILL.md` under each of `dirs` (any depth; missing folders skipped), sorted by name. A skill is named by
 * its front matter's `name`, else its folder's; on a clash the one found later wins (a later folder, or later in path
 * order within one).
 */
export function loadSkills(dirs: readonly string[]): Skill[] {
  const byName = new Map<string, Skill>();
  for (const dir of dirs) {
    if (!isDirectory(dir)) continue;
    for (const file of skillFiles(dir)) {
      const parsed = parseSkillFile(readFileSync(file, "utf8"), file);
      const folder = dirname(file);
      const name = parsed.name || basename(folder);
      const skill: Skill = { name, description: parsed.description ?? "", body: parsed.body, dir: folder };
      if (parsed.tags) skill.tags = parsed.tags;
      byName.set(name, skill);
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** What the model is told of each skill: its name and description. */
export function skillSummaries(skills: readonly Skill[]): SkillSummary[] {
  return skills.map(({ name, description }) => ({ name, description }));
}

/**
 * The seed's default search order: `~/.lite-agent/skills`, then `<workdir>/.lite-agent/skills`, then `skillsDir`
 * when given (later folders win).
 */
export function defaultSkillDirs(options: { workdir: string; home: string; skillsDir?: string }): string[] {
  const dirs = [join(options.home, ".lite-agent", "skills"), join(options.workdir, ".lite-agent", "skills")];
  return options.skillsDir ? [...dirs, options.skillsDir] : dirs;
}

/** Every `SKILL.md` under `dir`, in path order (so which of two same-named skills wins does not depend on the disk). */
function skillFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === SKILL_FILE)
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => compareText(relative(dir, a), relative(dir, b)));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
