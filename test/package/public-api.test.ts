import { describe, expect, it } from "vitest";
import * as root from "../../src/index.js";
import * as testing from "../../src/testing.js";
import * as workflow from "../../src/workflow.js";

describe("the package's root entry (src/index.ts)", () => {
  it("exports what users build agents with: the seed API, definitions, providers, middleware, errors", () => {
    for (const name of [
      "createAgent",
      "defineAgent",
      "defineTool",
      "localAgentConfig",
      "askUserTool",
      "loadSkills",
      "readSkills",
      "defaultSkillDirs",
      "loadSkillTool",
      "openai",
      "openaiProvider",
      "fakeProvider",
      "scriptedProvider",
      "retry",
      "permission",
      "policy",
      "compaction",
      "llmCompactor",
      "nativeCodec",
      "memoryCheckpointer",
      "fileCheckpointer",
      "foldEvents",
      "ContextEngine",
      "SteerController",
      "AgentError",
      "ProviderError",
      "textBlock",
    ])
      expect(root, name).toHaveProperty(name);
  });

  it("does not export kernel internals or tuning constants, nor the test kits of ./testing", () => {
    const internals = [
      "LEVEL_1_THRESHOLD",
      "RingBuffer",
      "runKernel",
      "sha256",
      "stableStringify",
      "serialLock",
    ];
    const kits = ["startOpenAIServer", "providerConformance", "checkpointerConformance"];
    expect([...internals, ...kits].filter((name) => name in root)).toEqual([]);
    expect(kits.filter((name) => !(name in testing))).toEqual([]);
  });

  it("and the workflow entry offers the same middleware factories as the root, not the in-process driver", () => {
    for (const name of ["retry", "permission", "policy", "compaction", "foldEvents", "nativeCodec"])
      expect((workflow as Record<string, unknown>)[name], name).toBe((root as Record<string, unknown>)[name]);
    expect(["createAgent", "openaiProvider", "fileCheckpointer"].filter((name) => name in workflow)).toEqual(
      [],
    );
  });
});
