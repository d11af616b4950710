/**
 * The workflow-safe entry, `lite-agent-temporal/workflow`, for code in the Temporal workflow sandbox (own workflows,
 * middleware modules). Deterministic; loads only kernel, contract, plan and wire (`src/`), `@temporalio/workflow`,
 * `@temporalio/common` and pure packages. Linted like the workflow folders; a workflow test bundles it.
 */

// Messages, model and tool contracts.
export * from "./kernel/vocabulary/messages.js";
export * from "./kernel/vocabulary/model.js";
export * from "./kernel/vocabulary/errors.js";
export type * from "./kernel/vocabulary/events.js";
export * from "./kernel/vocabulary/tools.js";
export type * from "./kernel/vocabulary/session-events.js";
export type * from "./kernel/loop/kernel-config.js";
export type { AbortSignalLike, KernelPorts } from "./kernel/vocabulary/ports.js";
export { NEVER_ABORTED } from "./kernel/vocabulary/ports.js";

// Middleware: the contract, composition, and the kernel's deterministic middleware factories.
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
export { retry, type RetryOptions } from "./kernel/middleware/retry-middleware.js";
// Middleware of your own that runs in durable runs too, and the typed side effects it may call.
export { defineMiddleware, type MiddlewareFactory } from "./kernel/middleware/durable-middleware.js";
export {
  defineEffect,
  type EffectContext,
  type EffectImplementation,
  type EffectRef,
} from "./kernel/vocabulary/effects.js";
export { fullJitterBackoff, type BackoffFn } from "./kernel/middleware/full-jitter-backoff.js";
export { isRetryableProviderError } from "./kernel/middleware/is-retryable-provider-error.js";
export {
  compaction,
  reactiveCompaction,
  defaultCompactor,
  tokenBudgetCompactor,
  llmCompactor,
  estimateTokens,
  type Compactor,
  type CompactionResult,
  type CompactPass,
  type DefaultCompactorOptions,
  type LlmCompactorOptions,
  type ReactiveCompactionOptions,
  type TokenBudgetCompactorOptions,
  type TokenEstimator,
} from "./kernel/compaction/index.js";
export {
  permission,
  policy,
  strictPolicy,
  composePolicies,
  type ApprovalAnswer,
  type ApprovalHandler,
  type InputHandler,
  type PermissionOptions,
  type PermissionPolicy,
  type PermissionRule,
  type PolicyContext,
  type PolicyOptions,
  type PolicyVerdict,
  type UserAnswer,
  type UserQuestion,
} from "./kernel/permission/index.js";

// Codecs and the event fold.
export {
  nativeCodec,
  jsonCodec,
  reactCodec,
  type CodecName,
  type DecodedResponse,
  type JsonCodecOptions,
  type ReactCodecOptions,
  type ToolCallCodec,
} from "./kernel/codecs/index.js";
export { foldEvents } from "./kernel/checkpoint/index.js";

// The serialisable agent plan that a session runs, and the session's messages (signals, updates, queries).
export type * from "./contract/agent-plan.js";
export * from "./contract/messages.js";
export type * from "./contract/requests.js";
export type * from "./contract/session-status.js";
export type * from "./contract/run-summary.js";
export type * from "./contract/transcript-page.js";
export * from "./contract/handler-descriptions.js";
