/**
 * The public API, `lite-agent-temporal`: the in-process agent, agent definitions, message/event/tool/error types,
 * providers, middleware, codecs, persistence and the context engine. Durable runs: `./worker`, `./client`; storage:
 * `./storage`; test kits: `./testing`; workflow-safe imports: `./workflow`. Kernel internals are not exported.
 */

// The in-process agent and the agent definition it shares with durable runs.
export { createAgent, type Agent, type CreateAgentConfig, type RunHandle } from "./agent.js";
export type { Checkpoint } from "./checkpoint/list-checkpoints.js";
export type { RestoreOptions, RestoreResult } from "./checkpoint/restore-checkpoint.js";
export { nodePorts } from "./node-ports.js";
export {
  defineAgent,
  toAgentPlan,
  workflowModulesOf,
  DURABLE_DEFAULTS,
  type AgentDefinition,
} from "./define-agent.js";
export { localAgentConfig, type LocalAgentOptions } from "./local-agent-config.js";
export type * from "./contract/agent-plan.js";
export type { TranscriptSegmentRef } from "./contract/transcript-state.js";
export type { McpHttpServer, McpServerConfig, McpServerOptions, McpStdioServer } from "./plan/mcp-servers.js";
export type { McpToolInfo } from "./contract/mcp-tool-info.js";
export type { McpServerUnavailable } from "./contract/mcp-server-unavailable.js";
export type { ToolSource, ToolSourceContext } from "./kernel/vocabulary/tool-source.js";

// Messages, models, events, tools, errors: the kernel's contracts.
export * from "./kernel/vocabulary/messages.js";
export * from "./kernel/vocabulary/model.js";
export * from "./kernel/vocabulary/errors.js";
export type * from "./kernel/vocabulary/events.js";
export * from "./kernel/vocabulary/tools.js";
export type * from "./kernel/vocabulary/session-events.js";
export type * from "./kernel/loop/kernel-config.js";
export type { AbortSignalLike, KernelPorts } from "./kernel/vocabulary/ports.js";
export { NEVER_ABORTED } from "./kernel/vocabulary/ports.js";
export { noopSandbox } from "./kernel/vocabulary/noop-sandbox.js";
export { SteerController, type SteerInput } from "./kernel/vocabulary/steer-controller.js";
export { forkConfig } from "./kernel/loop/fork.js";
export { askUserTool, renderAnswer, ASK_USER_TOOL } from "./kernel/builtin-tools/ask-user-tool.js";

// Skills: folders of SKILL.md files, listed in the system prompt and loaded on demand (`load_skill`).
export {
  loadSkills,
  readSkills,
  defaultSkillDirs,
  type Skill,
  type SkillsOption,
  type SkillsRead,
} from "./skills/load-skills.js";
export { loadSkillTool } from "./skills/load-skill-tool.js";

// Middleware: the contract and its factories.
export {
  composeModelCall,
  composeToolCall,
  type AgentContext,
  type Middleware,
  type ModelCall,
  type ModelResponse,
  type RunEnd,
  type ToolCallContext,
  type ToolExec,
  type ToolHookAction,
} from "./kernel/middleware/middleware.js";
export { runLifecycle, type LifecycleHook } from "./kernel/middleware/run-lifecycle.js";
export { retry, type RetryOptions } from "./kernel/middleware/retry-middleware.js";
export { fullJitterBackoff, type BackoffFn } from "./kernel/middleware/full-jitter-backoff.js";
export { isRetryableProviderError } from "./kernel/middleware/is-retryable-provider-error.js";
export {
  permission,
  policy,
  strictPolicy,
  composePolicies,
  defaultRedactor,
  type ApprovalAnswer,
  type ApprovalHandler,
  type Condition,
  type InputHandler,
  type MatchSpec,
  type PermissionOptions,
  type PermissionPolicy,
  type PermissionRule,
  type PolicyContext,
  type PolicyOptions,
  type PolicyVerdict,
  type Redactor,
  type UserAnswer,
  type UserQuestion,
} from "./kernel/permission/index.js";
export {
  compaction,
  reactiveCompaction,
  defaultCompactor,
  tokenBudgetCompactor,
  llmCompactor,
  reactiveTrim,
  runPipeline,
  snipPass,
  microPass,
  toolResultBudgetPass,
  memorySpillStore,
  estimateTokens,
  splitTurns,
  SPILL_PREFIX,
  type CompactPass,
  type CompactResult,
  type CompactionResult,
  type Compactor,
  type DefaultCompactorOptions,
  type LlmCompactorOptions,
  type MicroPassOptions,
  type ReactiveCompactionOptions,
  type ReactiveTrimOptions,
  type SnipPassOptions,
  type SpillStore,
  type TokenBudgetCompactorOptions,
  type TokenEstimator,
  type ToolResultBudgetOptions,
  type ToolResultBudgetPassOptions,
} from "./kernel/compaction/index.js";
export { defineMiddleware, type MiddlewareFactory } from "./kernel/middleware/durable-middleware.js";
export {
  defineEffect,
  implementEffect,
  type EffectContext,
  type EffectImplementation,
  type EffectRef,
} from "./kernel/vocabulary/effects.js";
export { delegateTool, type DelegateTool, type DelegateToolOptions } from "./subagents/delegate-tool.js";

// Codecs: how tool calls travel in the model's messages.
export {
  nativeCodec,
  jsonCodec,
  reactCodec,
  codecFor,
  type CodecName,
  type DecodedResponse,
  type JsonCodecOptions,
  type ReactCodecOptions,
  type ToolCallCodec,
} from "./kernel/codecs/index.js";

// Persistence (in-process sessions), background tasks and the context engine.
export {
  foldEvents,
  storeEvents,
  memoryCheckpointer,
  type MemoryCheckpointerOptions,
} from "./kernel/checkpoint/index.js";
export { fileCheckpointer, type FileCheckpointerOptions } from "./checkpoint/file-checkpointer.js";
export { createBackgroundTasks, type BackgroundDeps } from "./background-tasks.js";
export { backgroundCompletionMessage, type BackgroundTasksOptions } from "./kernel/background/index.js";
export type * from "./kernel/background/types.js";
// The seed's constructible class (the kernel's interface of the same name is its contract).
export {
  ContextEngine,
  createContextEngine,
  type ContextEngineInit,
  type ContextEngineOptions,
} from "./context-engine.js";
export {
  memoryContextArchive,
  type ContextArchive,
  type ContextArchivePutResult,
  type ContextFact,
  type ContextPlanner,
  type ContextPlannerInput,
  type ContextPlannerProvider,
  type ContextProposal,
  type ContextProposalSegment,
  type ContextSegment,
  type ContextView,
  type Fact,
  type ProjectContextOptions,
  type StateEntry,
  type StaticPrefixInput,
} from "./kernel/context/index.js";

// Providers: OpenAI and any OpenAI-compatible endpoint; the seed's fake model (the rest is in ./testing).
export * from "./providers/openai-provider.js";
export * from "./providers/fake-provider.js";
export * from "./providers/scripted-provider.js";

// The seed exports its conformance suites from its root too (also in ./testing).
export * from "./testing/checkpointer-conformance.js";
export * from "./testing/provider-conformance.js";
