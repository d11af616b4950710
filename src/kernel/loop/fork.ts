import type { KernelConfig } from "./kernel-config.js";
import type { Message } from "../vocabulary/messages.js";
import type { Middleware } from "../middleware/middleware.js";
import type { AnyTool } from "../vocabulary/tools.js";

/**
 * The configuration of a fork, a "parallel clone" of the agent: the same model, codec, limits and runtime
 * middleware, but no `beforeAgent` hooks (their effects are already in the seed) and no checkpointer (the fork
 * is an isolated sub-loop whose result goes back to the parent).
 */
export function forkConfig(config: KernelConfig, tools: AnyTool[] | undefined): KernelConfig {
  const use = (config.use ?? []).map(withoutStartHook);
  const { checkpointer: _checkpointer, toolSources, ...rest } = config;
  // Tools given for the fork replace the agent's, listed ones included.
  if (tools) return { ...rest, use, tools };
  return { ...rest, use, tools: config.tools ?? [], ...(toolSources ? { toolSources } : {}) };
}

/** A middleware without its `beforeAgent` hook: a fork's seed already holds that hook's effects. */
export function withoutStartHook(layer: Middleware): Middleware {
  if (!layer.beforeAgent) return layer;
  // Object.create keeps class-based middleware methods; the own property hides beforeAgent.
  return Object.assign(Object.create(layer) as Middleware, { beforeAgent: undefined });
}

/** The seed of a fork started by a tool: the conversation before the assistant message that called the tool. */
export function forkSeed(messages: Message[]): Message[] {
  const last = messages.at(-1);
  return last?.role === "assistant" ? messages.slice(0, -1) : [...messages];
}
