import type { EffectRef } from "../vocabulary/effects.js";
import { forEachMaybeAsync } from "../coroutine/maybe-async.js";
import type { AgentEvent, StopReason } from "../vocabulary/events.js";
import type { AssistantMessage, Message } from "../vocabulary/messages.js";
import type { ModelChunk, ModelStopReason, Usage } from "../vocabulary/model.js";
import type { ApprovalHandler } from "../permission/types.js";
import type { AbortSignalLike, KernelPorts } from "../vocabulary/ports.js";
import type { SessionEvent } from "../vocabulary/session-events.js";
import type { ToolCall, ToolResult } from "../vocabulary/tools.js";

/** The one handle middleware gets on a run. */
export interface AgentContext {
  readonly sessionId: string;
  /** The conversation; reassigning it in `beforeModel` persists into later turns. */
  messages: Message[];
  readonly turn: number;
  readonly signal: AbortSignalLike;
  /** Queues an event; it is yielded at the next loop boundary (live during the tool phase). */
  emit(event: AgentEvent): void;
  /** Per-run shared state. */
  readonly state: Map<string, unknown>;
  /** Persists a sidecar event (only when the run has a checkpointer or a context engine). */
  recordSessionEvent?(event: SessionEvent): void;
  /** Time, randomness, ids and sleep, deterministic in workflows. */
  readonly ports: KernelPorts;
  /** The fork this run belongs to, if any. */
  readonly forkId?: string;
  /**
   * Performs a side effect (`defineEffect`): in-process it calls the definition's implementation, in a durable run
   * it is an activity whose result the history keeps. Rejects when the effect fails or has no implementation.
   */
  effect<Input, Output>(ref: EffectRef<Input, Output>, input: Input): Promise<Output>;
  /** The run's approver (the `approval` handler in-process, the approval board in durable runs), if any. */
  readonly approval?: ApprovalHandler;
}

/**
 * How a middleware is made again inside a workflow: the id of a factory registered with `defineMiddleware` (or a
 * built-in such as `retry`) and its options, plain data. The module that registers it, when it is not built in.
 */
export interface DurableMiddlewareRef {
  id: string;
  options?: unknown;
  /** The URL of the workflow-safe module that defines it (`import.meta.url`); the worker bundles it. */
  module?: string;
}

/** The context of one tool call. */
export interface ToolCallContext extends AgentContext {
  readonly call: ToolCall;
}

/** The next layer of a model call. */
export type ModelCall = () => AsyncIterable<ModelChunk>;

/** The next layer of a tool call. */
export type ToolExec = () => Promise<ToolResult>;

/** What one model call produced, as an `afterModel` hook sees it. */
export interface ModelResponse {
  message: AssistantMessage;
  usage: Usage;
  /** Why the model stopped, when the provider said (`max_tokens`: cut off at the output limit). */
  stopReason?: ModelStopReason;
}

/** How a run ended, as an `afterAgent` hook sees it (the Go seed's OnEnd reads it from the loop state). */
export interface RunEnd {
  reason: StopReason;
}

/** What a `beforeToolCall` hook decides for one call (the Go seed's Proceed / Skip / Abort). */
export type ToolHookAction =
  | { action: "proceed" }
  | { action: "skip"; result?: string; isError?: boolean }
  | { action: "abort"; reason?: string };

/**
 * A layer on the turn loop; array order is outer → inner (`use: [a, b]`: `a → b → provider → b → a`). Hooks run in
 * array order, outside the wraps; a turn's tool calls run concurrently. A throwing hook ends the run with a fatal
 * `error` and `done(error)`, except the tool hooks, whose error becomes the call's error result.
 */
export interface Middleware {
  name: string;
  /** Present when the middleware can run in a durable run (made by `defineMiddleware` or a built-in factory). */
  durable?: DurableMiddlewareRef;
  /** Once, before the first turn (not again when a paused durable run resumes). */
  beforeAgent?(ctx: AgentContext): void | Promise<void>;
  /** Once, when the run ends for any reason (given as `end.reason`), before `done`. */
  afterAgent?(ctx: AgentContext, end: RunEnd): void | Promise<void>;
  /** Every turn, before the model call; may rewrite `ctx.messages`. */
  beforeModel?(ctx: AgentContext): void | Promise<void>;
  /**
   * After each model call whose message reached the conversation (also a malformed one the codec repairs), after
   * the `message` event and before any tool runs. The message is already in `ctx.messages`.
   */
  afterModel?(ctx: AgentContext, response: ModelResponse): void | Promise<void>;
  wrapModelCall?(ctx: AgentContext, next: ModelCall): AsyncIterable<ModelChunk>;
  wrapToolCall?(ctx: ToolCallContext, next: ToolExec): Promise<ToolResult>;
  /** Runs before the tool chain; may skip the call with a result or abort the whole run. */
  beforeToolCall?(ctx: ToolCallContext): ToolHookAction | void | Promise<ToolHookAction | void>;
  /**
   * After the tool chain (or a `beforeToolCall` skip), before the result is recorded and `tool_call_end`: returns
   * a replacement result, or nothing to keep it. Each hook sees the result the previous one left.
   */
  afterToolCall?(ctx: ToolCallContext, result: ToolResult): ToolResult | void | Promise<ToolResult | void>;
  /**
   * At the loop's back-edge (the Go seed's OnLoop): after a turn's tool results were fed back, before its
   * `turn_end` and the next turn. Not after a turn that answers without tools; the run's end is `afterAgent`.
   */
  afterTurn?(ctx: AgentContext): void | Promise<void>;
}

/** Folds the `wrapModelCall` layers around `base`, first middleware outermost. */
export function composeModelCall(
  middleware: readonly Middleware[],
  ctx: AgentContext,
  base: ModelCall,
): ModelCall {
  return middleware.reduceRight<ModelCall>((next, layer) => {
    const wrap = layer.wrapModelCall;
    return wrap ? () => wrap.call(layer, ctx, next) : next;
  }, base);
}

/** Folds the `wrapToolCall` layers around `base`, first middleware outermost. */
export function composeToolCall(
  middleware: readonly Middleware[],
  ctx: ToolCallContext,
  base: ToolExec,
): ToolExec {
  return middleware.reduceRight<ToolExec>((next, layer) => {
    const wrap = layer.wrapToolCall;
    return wrap ? () => wrap.call(layer, ctx, next) : next;
  }, base);
}

/**
 * Runs one lifecycle hook of every middleware, in array order, one after another. Returns a promise only when a
 * hook did (await it then); synchronous hooks cost the loop no promise.
 */
export function runHooks(
  middleware: readonly Middleware[],
  hook: "beforeAgent" | "beforeModel" | "afterTurn",
  ctx: AgentContext,
): void | Promise<void> {
  return forEachMaybeAsync(middleware, (layer) => layer[hook]?.(ctx));
}
