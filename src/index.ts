/**
 * The public API: the in-process agent (the seed's `createAgent`), the kernel's types, codecs, middleware,
 * policies, compaction, persistence and the testing fakes. Durable runs live in `./worker` and `./client`.
 */
export { createAgent, type Agent, type CreateAgentConfig, type RunHandle } from "./agent.js";
export { nodePorts } from "./node-ports.js";

export * from "./kernel/messages.js";
export * from "./kernel/model.js";
export * from "./kernel/errors.js";
export * from "./kernel/events.js";
export * from "./kernel/tools.js";
export * from "./kernel/middleware.js";
export type * from "./kernel/ports.js";
export { NEVER_ABORTED } from "./kernel/ports.js";
export type * from "./kernel/session-events.js";
export type * from "./kernel/kernel-config.js";
export { runKernel } from "./kernel/run-kernel.js";
export { SteerController, type SteerInput } from "./kernel/steer-controller.js";
export { forkConfig, type ForkOptions } from "./kernel/fork.js";
export { askUserTool, renderAnswer, ASK_USER_TOOL } from "./kernel/builtin-tools/ask-user-tool.js";

export * from "./kernel/codecs/index.js";
export * from "./kernel/permission/index.js";
export * from "./kernel/compaction/index.js";
export * from "./kernel/checkpoint/index.js";
export * from "./kernel/background/index.js";
export * from "./kernel/context/index.js";
// The seed's constructible class; it shadows the interface of the same name that the line above exports.
export { ContextEngine, type ContextEngineInit } from "./context-engine.js";
export * from "./kernel/hash/index.js";
export { retry, type RetryOptions } from "./kernel/retry/retry-middleware.js";
export { defineMiddleware, type MiddlewareFactory } from "./kernel/durable-middleware.js";
export { delegateTool, type DelegateTool, type DelegateToolOptions } from "./subagents/delegate-tool.js";
export {
  defineEffect,
  implementEffect,
  type EffectContext,
  type EffectImplementation,
  type EffectRef,
} from "./kernel/effects.js";
export { fullJitterBackoff } from "./kernel/retry/full-jitter-backoff.js";
export { isRetryableProviderError, RETRYABLE_STATUSES } from "./kernel/retry/is-retryable-provider-error.js";

export { fileCheckpointer, type FileCheckpointerOptions } from "./checkpoint/file-checkpointer.js";
export * from "./providers/openai-provider.js";
export {
  classifyProviderError,
  type ProviderErrorClassification,
} from "./providers/openai-classify-error.js";
export {
  defineAgent,
  toAgentPlan,
  localAgentConfig,
  DURABLE_DEFAULTS,
  type AgentDefinition,
} from "./define-agent.js";
export type * from "./common/agent-plan.js";
export { planCompactor, DEFAULT_COMPACTION_THRESHOLD, type SummarySource } from "./common/plan-compactor.js";
export { checkCompactionPlan } from "./common/check-compaction-plan.js";
export type { TranscriptSegmentRef } from "./common/transcript-ledger.js";

export * from "./testing.js";
