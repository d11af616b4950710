import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { SkillDiagnostic, SkillSummary } from "../contract/agent-plan.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { parseSkillFile, SkillFileError } from "./skill-file.js";

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

/** The skills of some folders, and the files left out because they could not be read. */
export interface SkillsRead {
  skills: Skill[];
  diagnostics: SkillDiagnostic[];
}

/**
 * Loads every `SKILL.md` under each of `dirs` (any depth; missing folders skipped), sorted by name; a file or folder
 * that cannot be read or parsed is left out, named in `diagnostics` with the error. A skill is named by its front
 * matter's `name`, else its folder's; on a clash the one found later wins (later folder, or later path in one).
 */
export function readSkills(dirs: readonly string[]): SkillsRead {
  const byName = new Map<string, Skill>();
  const diagnostics: SkillDiagnostic[] = [];
  for (const dir of dirs)
    for (const file of listedSkillFiles(dir, diagnostics)) {
      const skill = readSkillOrReport(file, diagnostics);
      if (skill) byName.set(skill.name, skill);
    }
  return { skills: [...byName.values()].sort((a, b) => compareText(a.name, b.name)), diagnostics };
}

/** The skills {@link readSkills} finds, without the files it left out. */
export function loadSkills(dirs: readonly string[]): Skill[] {
  return readSkills(dirs).skills;
}

/** The `SKILL.md` files under `dir`: none when it is missing, or when it cannot be listed (then reported). */
function listedSkillFiles(dir: string, diagnostics: SkillDiagnostic[]): string[] {
  if (!existsSync(dir)) return [];
  try {
    return skillFiles(dir);
  } catch (error) {
    diagnostics.push({ file: dir, error: errorMessage(error) });
    return [];
  }
}

/** One skill; undefined, and reported with the file and the error, when it cannot be read or parsed. */
function readSkillOrReport(file: string, diagnostics: SkillDiagnostic[]): Skill | undefined {
  try {
    return readSkill(file);
  } catch (error) {
    // A parse error names the file in its message; the diagnostic has it apart.
    const reason = error instanceof SkillFileError ? error.reason : errorMessage(error);
    diagnostics.push({ file, error: reason });
    return undefined;
  }
}

/** One `SKILL.md` as a skill; throws when it cannot be read or parsed. */
function readSkill(file: string): Skill {
  const parsed = parseSkillFile(readFileSync(file, "utf8"), file);
  const folder = dirname(file);
  const skill: Skill = {
    name: parsed.name || basename(folder),
    description: parsed.description ?? "",
    body: parsed.body,
    dir: folder,
  };
  if (parsed.tags) skill.tags = parsed.tags;
  return skill;
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

/**
 * Every `SKILL.md` under `dir`, a file or a link (one to nothing is reported when read), in path order: which of two
 * same-named skills wins does not depend on the disk.
 */
function skillFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name === SKILL_FILE)
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => compareText(relative(dir, a), relative(dir, b)));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
