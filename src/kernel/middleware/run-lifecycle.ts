import { forEachMaybeAsync } from "../coroutine/maybe-async.js";
import type { AgentContext, Middleware, RunEnd } from "./middleware.js";

/** The hooks `runLifecycle` runs: the seed's three, and `afterTurn`. */
export type LifecycleHook = "beforeAgent" | "afterAgent" | "beforeModel" | "afterTurn";

/**
 * Runs one hook of every middleware in array order, each awaited before the next (the seed's `runLifecycle`).
 * `afterAgent` hooks are told `end`, by default a run that stopped normally.
 */
export async function runLifecycle(
  middleware: readonly Middleware[],
  hook: LifecycleHook,
  ctx: AgentContext,
  end: RunEnd = { reason: "stop" },
): Promise<void> {
  await forEachMaybeAsync(middleware, (layer) =>
    hook === "afterAgent" ? layer.afterAgent?.(ctx, end) : layer[hook]?.(ctx),
  );
}
