import { BUILTIN_COMPACTORS, BUILTIN_MIDDLEWARE } from "./builtin-middleware-ids.js";
import { compaction } from "../compaction/compaction-middleware.js";
import { defaultCompactor, type DefaultCompactorOptions } from "../compaction/default-compactor.js";
import {
  tokenBudgetCompactor,
  type TokenBudgetCompactorOptions,
} from "../compaction/token-budget-compactor.js";
import type { Compactor } from "../compaction/types.js";
import { reactiveCompaction, type ReactiveCompactionOptions } from "../compaction/reactive-compaction.js";
import { registerMiddlewareFactory } from "./durable-middleware.js";
import { permission, type DurablePermissionOptions } from "../permission/gate.js";
import { policy } from "../permission/policy.js";
import { retry, type RetryOptions } from "./retry-middleware.js";

// Importing this module registers the factories of the kernel's middleware that can run durably, so a definition's
// `use: [retry(), reactiveCompaction(), permission(policy({...}))]` is made again inside the workflow.
registerMiddlewareFactory(BUILTIN_MIDDLEWARE.retry, (options: RetryOptions | undefined) => retry(options));
registerMiddlewareFactory(
  BUILTIN_MIDDLEWARE.reactiveCompaction,
  (options: ReactiveCompactionOptions | undefined) => reactiveCompaction(options),
);
registerMiddlewareFactory(BUILTIN_MIDDLEWARE.permission, (options: DurablePermissionOptions) =>
  permission(policy(options.policy), undefined, {
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.audit !== undefined ? { audit: options.audit } : {}),
    ...(options.serializeApprovals !== undefined ? { serializeApprovals: options.serializeApprovals } : {}),
  }),
);

registerMiddlewareFactory(BUILTIN_MIDDLEWARE.compaction, (compactor: { id: string; options?: unknown }) =>
  compaction(compactorFromRef(compactor)),
);

/** A built-in compactor from its reference. */
function compactorFromRef(ref: { id: string; options?: unknown }): Compactor {
  if (ref.id === BUILTIN_COMPACTORS.default) return defaultCompactor(ref.options as DefaultCompactorOptions);
  if (ref.id === BUILTIN_COMPACTORS.tokenBudget)
    return tokenBudgetCompactor(ref.options as TokenBudgetCompactorOptions);
  throw new TypeError(`compactor '${ref.id}' is not one the workflow code can make`);
}

/** The ids this module registered. */
export const BUILTIN_MIDDLEWARE_IDS: readonly string[] = Object.values(BUILTIN_MIDDLEWARE);
