import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agent.js";
import { defineAgent, toAgentPlan } from "../../../src/define-agent.js";
import { localAgentConfig } from "../../../src/local-agent-config.js";
import type { ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { loadSkillTool } from "../../../src/skills/load-skill-tool.js";
import { defaultSkillDirs, loadSkills } from "../../../src/skills/load-skills.js";
import { parseSkillFile } from "../../../src/skills/skill-file.js";
import { skillFolderListing } from "../../../src/skills/skill-folder-listing.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";

const fixtures = fileURLToPath(new URL("../../fixtures/skills/", import.meta.url));
const base = path.join(fixtures, "base");
const override = path.join(fixtures, "override");
const ctx = { sessionId: "s", signal: new AbortController().signal, emit: () => undefined };

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function skillsFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skills-"));
  scratch.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe("SKILL.md files", () => {
  it("give name, description and tags from the front matter, and the instructions from the body", () => {
    const skill = parseSkillFile("---\nname: a\ndescription: does a\ntags: [x, y]\n---\n\nStep one.\n", "f");
    expect(skill).toEqual({ name: "a", description: "does a", tags: ["x", "y"], body: "Step one." });
  });

  it("without front matter are all body", () => {
    expect(parseSkillFile("Just do it.\n", "f")).toEqual({ body: "Just do it." });
  });

  it("with front matter that is not YAML, or fields of the wrong type, fail naming the file", () => {
    expect(() => parseSkillFile("---\nname: [unclosed\n---\nx", "bad/SKILL.md")).toThrow(
      /skill file bad\/SKILL\.md: its front matter is not valid YAML/,
    );
    expect(() => parseSkillFile("---\nname: 3\n---\nx", "n/SKILL.md")).toThrow(
      "skill file n/SKILL.md: 'name' must be a string",
    );
    expect(() => parseSkillFile("---\n- a\n---\nx", "l/SKILL.md")).toThrow(/must be a YAML mapping/);
  });
});

describe("loadSkills", () => {
  it("finds every SKILL.md, naming a skill by its front matter or else by its folder", () => {
    const skills = loadSkills([base]);
    expect(skills.map(({ name, description }) => ({ name, description }))).toEqual([
      { name: "csv-report", description: "Summarise a CSV file as a short report" },
      { name: "greeting", description: "Greet the user by name" },
    ]);
    expect(skills[0]).toMatchObject({ tags: ["data", "csv"], dir: path.join(base, "csv-report") });
    expect(skills[1]!.body).toBe('Say "Hello, <name>!" and nothing else.');
  });

  it("lets a later folder's skill win over an earlier one of the same name; missing folders are skipped", () => {
    const skills = loadSkills([base, path.join(fixtures, "missing"), override]);
    const csv = skills.find((skill) => skill.name === "csv-report")!;
    expect(csv.description).toBe("Summarise a CSV file (the project's own version)");
    expect(csv.dir).toBe(path.join(override, "better-csv"));
    expect(loadSkills([override, base]).find((skill) => skill.name === "csv-report")!.dir).toBe(
      path.join(base, "csv-report"),
    );
  });

  it("follows the seed's default order: home, then the workdir's, then skillsDir", () => {
    expect(defaultSkillDirs({ home: "/h", workdir: "/w", skillsDir: "/s" })).toEqual([
      path.join("/h", ".lite-agent", "skills"),
      path.join("/w", ".lite-agent", "skills"),
      "/s",
    ]);
  });
});

describe("the skill folder listing", () => {
  it("shows the folder two levels deep, without SKILL.md", () => {
    expect(skillFolderListing(path.join(base, "csv-report"))).toBe("scripts/\n  stats.py\ntemplate.md");
    const deep = skillsFolder({ "s/SKILL.md": "x", "s/a/b/c.txt": "deep", "s/a/top.txt": "t" });
    expect(skillFolderListing(path.join(deep, "s"))).toBe("a/\n  b/\n  top.txt");
    expect(skillFolderListing(path.join(base, "greeting"))).toBe("");
  });
});

describe("load_skill", () => {
  const tool = loadSkillTool([base, override]);

  it("returns the skill's instructions in a <skill> element, then its folder's files", async () => {
    const result = await tool.execute({ name: "greeting" }, ctx);
    expect(result).toBe('<skill name="greeting">\nSay "Hello, <name>!" and nothing else.\n</skill>');
    const csv = await loadSkillTool([base]).execute({ name: "csv-report" }, ctx);
    expect(csv).toBe(
      '<skill name="csv-report">\nRead the file, count its rows, and write the report from template.md.\n</skill>\n\n' +
        `Files in the skill's folder (${path.join(base, "csv-report")}):\nscripts/\n  stats.py\ntemplate.md`,
    );
  });

  it("answers an unknown name with an error result listing the skills there are", async () => {
    expect(await tool.execute({ name: "nope" }, ctx)).toEqual({
      content: "Error: unknown skill 'nope'. Available skills: csv-report, greeting",
      isError: true,
    });
  });

  it("is read-only, so durable runs retry it", () => {
    expect(tool.retry).toBe("idempotent");
    expect(tool.security).toMatchObject({ filesystem: "read", sideEffects: false });
  });
});

describe("an agent with skills", () => {
  const definition = defineAgent({
    name: "analyst",
    model: "m",
    system: "You analyse data.",
    skills: { dirs: [base, override] },
  });

  it("plans the skill list and the load_skill tool (idempotent)", () => {
    const plan = toAgentPlan(definition);
    expect(plan.skills).toEqual([
      { name: "csv-report", description: "Summarise a CSV file (the project's own version)" },
      { name: "greeting", description: "Greet the user by name" },
    ]);
    expect(plan.tools.map((tool) => [tool.name, tool.retry])).toEqual([["load_skill", "idempotent"]]);
  });

  it("in-process: the system prompt lists the skills and load_skill reads one on demand", async () => {
    const requests: ModelRequest[] = [];
    const model = fakeProvider([
      (request) => {
        requests.push(request);
        return toolCallTurn([{ id: "c1", name: "load_skill", input: { name: "greeting" } }]);
      },
      (request) => {
        requests.push(request);
        return textTurn("Hello, Ada!");
      },
    ]);
    const result = await createAgent(localAgentConfig(definition, model)).send("greet Ada");
    expect(result.text).toBe("Hello, Ada!");
    expect(requests[0]!.system).toBe(
      "You analyse data.\n\nSkills you can use (call load_skill with a skill's name to read its instructions " +
        "before following it):\n- csv-report: Summarise a CSV file (the project's own version)\n" +
        "- greeting: Greet the user by name",
    );
    const results = requests[1]!.messages.flatMap((message) =>
      Array.isArray(message.content) ? message.content.filter((block) => block.type === "tool_result") : [],
    );
    expect(results).toEqual([
      expect.objectContaining({ content: expect.stringContaining('<skill name="greeting">') }),
    ]);
  });

  it("refuses a tool of its own named load_skill, and dirs that are not a list", () => {
    const own = { ...loadSkillTool([]), name: "load_skill" };
    expect(() => defineAgent({ name: "x", model: "m", skills: { dirs: [] }, tools: [own] })).toThrow(
      "agent 'x' has skills, so its tools cannot include one named 'load_skill'",
    );
    expect(() => defineAgent({ name: "x", model: "m", skills: { dirs: "skills" as never } })).toThrow(
      "agent 'x': 'skills.dirs' must be a list of folder paths",
    );
  });
});
