import { parse as parseYaml } from "yaml";

/** A skill as its `SKILL.md` declares it: front matter (`name`, `description`, `tags`) and the instructions. */
export interface SkillFile {
  name?: string;
  description?: string;
  tags?: string[];
  /** The instructions: the file's text after the front matter. */
  body: string;
}

/** A `SKILL.md` that cannot be used: its message names the file; `reason` says why without it. */
export class SkillFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`skill file ${file}: ${reason}`);
    this.name = "SkillFileError";
  }
}

/** Front matter: a `---` line, YAML, a `---` line, at the very start of the file. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Parses a `SKILL.md` into its optional YAML front matter (`name`, `description` and `tags` read, other keys ignored)
 * and its body. Throws a {@link SkillFileError} naming `file` when the front matter is not YAML or a field has the
 * wrong type.
 */
export function parseSkillFile(text: string, file: string): SkillFile {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { body: text.trim() };
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (error) {
    // The parser's first line says what and where; the code frame after it would break one-line reports.
    const what = (error as Error).message.split("\n")[0]!.replace(/:$/, "");
    throw new SkillFileError(file, `its front matter is not valid YAML: ${what}`);
  }
  if (data !== null && data !== undefined && (typeof data !== "object" || Array.isArray(data)))
    throw new SkillFileError(file, "its front matter must be a YAML mapping (name, description, tags)");
  const fields = (data ?? {}) as Record<string, unknown>;
  const skill: SkillFile = { body: text.slice(match[0].length).trim() };
  for (const key of ["name", "description"] as const) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") throw new SkillFileError(file, `'${key}' must be a string`);
    skill[key] = value.trim();
  }
  if (fields.tags !== undefined && fields.tags !== null) {
    if (!Array.isArray(fields.tags) || fields.tags.some((tag) => typeof tag !== "string"))
      throw new SkillFileError(file, "'tags' must be a list of strings");
    skill.tags = fields.tags as string[];
  }
  return skill;
}
