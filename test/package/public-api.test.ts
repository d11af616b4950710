import { describe, expect, expectTypeOf, it } from "vitest";
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

  it("does not export kernel internals or tuning constants, nor the OpenAI test server of ./testing", () => {
    const internals = [
      "LEVEL_1_THRESHOLD",
      "RingBuffer",
      "runKernel",
      "sha256",
      "stableStringify",
      "serialLock",
    ];
    const kits = ["startOpenAIServer", "providerConformance", "checkpointerConformance"];
    // The seed exports its two conformance suites from its root as well.
    expect([...internals, "startOpenAIServer"].filter((name) => name in root)).toEqual([]);
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

/** The names the seed (`@lite-agent/core`) exports from its root, values and types: a port changes only the import. */
const SEED_VALUES = (
  "AbortError AgentError CheckpointConflictError CodecError ContextEngine MaxTurnsError ProviderError " +
  "SPILL_PREFIX SteerController ToolError backgroundCompletionMessage checkpointerConformance " +
  "compaction composeModelCall composePolicies composeToolCall createAgent createBackgroundTasks " +
  "createContextEngine defaultCompactor defaultRedactor defineTool estimateTokens fakeProvider " +
  "foldEvents isTextBlock isToolCallBlock jsonCodec legacyStoreAdapter llmCompactor memoryCheckpointer " +
  "memorySpillStore memoryStore microPass nativeCodec noopSandbox permission policy projectContext " +
  "providerConformance reactCodec reactiveCompaction reactiveTrim retry runLifecycle runPipeline " +
  "snipPass splitTurns storeEvents strictPolicy textBlock toToolSpec tokenBudgetCompactor " +
  "toolResultBlock toolResultBudgetPass "
)
  .trim()
  .split(" ");

/** Seed names still missing (with the types `Store`, `ProviderConformanceFactory`, `ProviderConformanceScenario`). */
const NOT_YET = ["legacyStoreAdapter", "memoryStore", "projectContext"];

describe("the seed's root names", () => {
  it("are all exported from the root entry", () => {
    expect(SEED_VALUES.filter((name) => !(name in root))).toEqual(NOT_YET);
  });

  it("and its type names too (this file does not compile otherwise)", () => {
    expectTypeOf<SeedTypes>().not.toBeNever();
  });
});

/** Each of the seed's root type names, as the root entry exports it. */
type SeedTypes = [
  root.Agent,
  root.AgentContext,
  root.AgentEvent,
  root.ApprovalHandler,
  root.AssistantMessage,
  root.BackgroundCompletion,
  root.BackgroundDeps,
  root.BackgroundHandle,
  root.BackgroundKind,
  root.BackgroundLimits,
  root.BackgroundRead,
  root.BackgroundRunResult,
  root.BackgroundSpawnOptions,
  root.BackgroundStatus,
  root.BackgroundTasks,
  root.Checkpointer,
  root.CompactPass,
  root.CompactResult,
  root.CompactionBlock,
  root.Compactor,
  root.Condition,
  root.ContentBlock,
  root.ContextArchive,
  root.ContextArchivePutResult,
  root.ContextEngineOptions,
  root.ContextPlanner,
  root.ContextPlannerInput,
  root.ContextPlannerProvider,
  root.ContextProposal,
  root.ContextProposalSegment,
  root.ContextSegment,
  root.ContextStatus,
  root.ContextView,
  root.CreateAgentConfig,
  root.Decision,
  root.DefaultCompactorOptions,
  root.Fact,
  root.FakeTurn,
  root.InputHandler,
  root.JsonCodecOptions,
  root.KernelConfig,
  root.KernelContextOptions,
  root.LlmCompactorOptions,
  root.MatchSpec,
  root.Message,
  root.MicroPassOptions,
  root.Middleware,
  root.ModelCall,
  root.ModelChunk,
  root.ModelProvider,
  root.ModelRequest,
  root.NativeBlock,
  root.PermissionPolicy,
  root.PermissionRule,
  root.PolicyContext,
  root.PolicyOptions,
  root.PolicyVerdict,
  root.ProjectContextOptions,
  root.ProviderContextCapabilities,
  root.ProviderContextEdit,
  root.ProviderPromptCache,
  root.ReactCodecOptions,
  root.ReactiveCompactionOptions,
  root.ReactiveTrimOptions,
  root.Redactor,
  root.RetryOptions,
  root.Role,
  root.RunOptions,
  root.RunResult,
  root.Sandbox,
  root.SandboxWrapOptions,
  root.SessionEvent,
  root.SessionInfo,
  root.SnipPassOptions,
  root.SpillStore,
  root.StateEntry,
  root.StaticPrefixInput,
  root.StopReason,
  root.StoredEvent,
  root.TextBlock,
  root.TokenBudgetCompactorOptions,
  root.TokenEstimator,
  root.Tool,
  root.ToolCall,
  root.ToolCallBlock,
  root.ToolCallCodec,
  root.ToolCallContext,
  root.ToolChoice,
  root.ToolContext,
  root.ToolExec,
  root.ToolResult,
  root.ToolResultBlock,
  root.ToolResultBudgetOptions,
  root.ToolSecurity,
  root.ToolSpec,
  root.Usage,
  root.UserAnswer,
  root.UserQuestion,
];
