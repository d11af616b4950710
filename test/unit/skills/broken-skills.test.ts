import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentRegistry } from "../../../src/activities/agent-registry.js";
import { createAgent } from "../../../src/agent.js";
import { defineAgent, toAgentPlan } from "../../../src/define-agent.js";
import type { AgentEvent } from "../../../src/kernel/vocabulary/events.js";
import type { ModelRequest } from "../../../src/kernel/vocabulary/model.js";
import { localAgentConfig } from "../../../src/local-agent-config.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { loadSkills, readSkills } from "../../../src/skills/load-skills.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function skillsFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "broken-skills-"));
  scratch.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/**
 * One good skill, one with front matter that is not YAML, one with a field of the wrong type, and one that cannot be
 * read: a link to a file that is not there (permissions would not stop the tests when they run as root).
 */
function mixedFolder(): string {
  const dir = skillsFolder({
    "tidy/SKILL.md": "---\nname: tidy\ndescription: Tidy the desk\n---\nPut everything away.",
    "bad-yaml/SKILL.md": "---\nname: [unclosed\n---\nx",
    "bad-type/SKILL.md": "---\nname: 3\n---\nx",
  });
  mkdirSync(path.join(dir, "gone"));
  symlinkSync(path.join(dir, "nowhere.md"), path.join(dir, "gone", "SKILL.md"));
  return dir;
}

describe("readSkills with broken skill files", () => {
  it("loads the good ones and skips each broken or unreadable file, naming it with its error", () => {
    const dir = mixedFolder();
    const { skills, diagnostics } = readSkills([dir]);
    expect(skills.map((skill) => skill.name)).toEqual(["tidy"]);
    expect(diagnostics).toEqual([
      { file: path.join(dir, "bad-type", "SKILL.md"), error: "'name' must be a string" },
      {
        file: path.join(dir, "bad-yaml", "SKILL.md"),
        error: expect.stringMatching(/^its front matter is not valid YAML: .+ at line 1, column \d+$/),
      },
      {
        file: path.join(dir, "gone", "SKILL.md"),
        error: `ENOENT: no such file or directory, open '${path.join(dir, "gone", "SKILL.md")}'`,
      },
    ]);
    expect(loadSkills([dir]).map((skill) => skill.name)).toEqual(["tidy"]);
  });

  it("skips a missing folder silently, and names a path that is not a folder", () => {
    const dir = skillsFolder({ "notes.txt": "not a folder" });
    const file = path.join(dir, "notes.txt");
    const { skills, diagnostics } = readSkills([path.join(dir, "missing"), file]);
    expect(skills).toEqual([]);
    expect(diagnostics).toEqual([{ file, error: expect.stringContaining("ENOTDIR") }]);
  });
});

describe("an agent with a broken skill file", () => {
  it("plans the good skills with diagnostics, and carries no diagnostics field when every file is good", () => {
    const dir = mixedFolder();
    const plan = toAgentPlan(defineAgent({ name: "a", model: "m", skills: { dirs: [dir] } }));
    expect(plan.skills).toEqual([{ name: "tidy", description: "Tidy the desk" }]);
    expect(plan.skillDiagnostics?.map((entry) => path.relative(dir, entry.file))).toEqual([
      path.join("bad-type", "SKILL.md"),
      path.join("bad-yaml", "SKILL.md"),
      path.join("gone", "SKILL.md"),
    ]);
    const good = skillsFolder({ "tidy/SKILL.md": "Put everything away." });
    expect(toAgentPlan(defineAgent({ name: "a", model: "m", skills: { dirs: [good] } }))).not.toHaveProperty(
      "skillDiagnostics",
    );
  });

  it("does not stop a worker's registry: it names the skipped files, and every agent is registered", () => {
    const dir = mixedFolder();
    const broken = defineAgent({ name: "broken", model: "m", skills: { dirs: [dir] } });
    const registry = new AgentRegistry([broken, defineAgent({ name: "other", model: "m" })], {});
    expect(registry.agentNames()).toEqual(["broken", "other"]);
    expect(registry.skippedSkillFiles()).toHaveLength(3);
    expect(registry.skippedSkillFiles()[0]).toEqual({
      agent: "broken",
      file: path.join(dir, "bad-type", "SKILL.md"),
      error: "'name' must be a string",
    });
    expect(registry.plan("broken").skills).toEqual([{ name: "tidy", description: "Tidy the desk" }]);
  });

  it("in-process: each run starts with a diagnostic per skipped file, and the good skill loads", async () => {
    const dir = mixedFolder();
    const definition = defineAgent({ name: "a", model: "m", skills: { dirs: [dir] } });
    const requests: ModelRequest[] = [];
    const model = fakeProvider([
      (request) => {
        requests.push(request);
        return toolCallTurn([{ id: "c1", name: "load_skill", input: { name: "tidy" } }]);
      },
      (request) => {
        requests.push(request);
        return textTurn("Tidied.");
      },
    ]);
    const events: AgentEvent[] = [];
    for await (const event of createAgent(localAgentConfig(definition, model)).run("tidy up"))
      events.push(event);
    const diagnostics = events.filter((event) => event.type === "diagnostic");
    expect(diagnostics).toEqual([
      expect.objectContaining({ level: "warning", code: "skill_skipped" }),
      expect.objectContaining({ code: "skill_skipped" }),
      expect.objectContaining({ code: "skill_skipped" }),
    ]);
    expect(diagnostics[0]).toMatchObject({
      message: `skill file ${path.join(dir, "bad-type", "SKILL.md")} was skipped: 'name' must be a string`,
    });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "stop" });
    expect(requests[0]!.system).toContain("- tidy: Tidy the desk");
    expect(requests[0]!.system).not.toContain("bad-");
    const results = requests[1]!.messages.flatMap((message) =>
      Array.isArray(message.content) ? message.content.filter((block) => block.type === "tool_result") : [],
    );
    expect(results).toEqual([
      expect.objectContaining({ content: expect.stringContaining('<skill name="tidy">') }),
    ]);
  });
});
