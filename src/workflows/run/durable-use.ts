import type { AgentPlan } from "../../contract/agent-plan.js";
import { middlewareFromRef } from "../../kernel/middleware/durable-middleware.js";
import type { Middleware } from "../../kernel/middleware/middleware.js";
// Registers the kernel's own factories (retry, reactiveCompaction, permission) in the workflow code.
import "../../kernel/middleware/register-builtin-middleware.js";

/**
 * The definition's own middleware, made again inside the workflow from the plan: built-ins from the kernel, the
 * others from the `defineMiddleware` modules the worker bundled. An id this workflow code does not know throws,
 * failing the workflow task: the session waits, nothing lost, until a worker that has the module takes it.
 */
export function durableUse(plan: AgentPlan): Middleware[] {
  return (plan.use ?? []).map((ref) => middlewareFromRef(ref));
}
