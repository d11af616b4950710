import type { AgentEvent } from "./events.js";
import type { Message } from "./messages.js";
import type { ModelChunk } from "./model.js";
import type { AbortSignalLike, KernelPorts } from "./ports.js";
import type { SessionEvent } from "./session-events.js";
import type { ToolCall, ToolResult } from "./tools.js";

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
}

/** The context of one tool call. */
export interface ToolCallContext extends AgentContext {
  readonly call: ToolCall;
}

/** The next layer of a model call. */
export type ModelCall = () => AsyncIterable<ModelChunk>;

/** The next layer of a tool call. */
export type ToolExec = () => Promise<ToolResult>;

/** What a `beforeToolCall` hook decides for one call (the Go seed's Proceed / Skip / Abort). */
export type ToolHookAction =
  | { action: "proceed" }
  | { action: "skip"; result?: string; isError?: boolean }
  | { action: "abort"; reason?: string };

/**
 * A layer on the turn loop. Array order is outer → inner: with `use: [a, b]` a model call flows
 * `a → b → provider → b → a`. Lifecycle hooks run in array order.
 */
export interface Middleware {
  name: string;
  beforeAgent?(ctx: AgentContext): void | Promise<void>;
  afterAgent?(ctx: AgentContext): void | Promise<void>;
  beforeModel?(ctx: AgentContext): void | Promise<void>;
  wrapModelCall?(ctx: AgentContext, next: ModelCall): AsyncIterable<ModelChunk>;
  wrapToolCall?(ctx: ToolCallContext, next: ToolExec): Promise<ToolResult>;
  /** Runs before the tool chain; may skip the call with a result or abort the whole run. */
  beforeToolCall?(ctx: ToolCallContext): ToolHookAction | void | Promise<ToolHookAction | void>;
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

/** Runs one lifecycle hook of every middleware, in array order, one after another. */
export async function runLifecycle(
  middleware: readonly Middleware[],
  hook: "beforeAgent" | "afterAgent" | "beforeModel",
  ctx: AgentContext,
): Promise<void> {
  for (const layer of middleware) await layer[hook]?.(ctx);
}
