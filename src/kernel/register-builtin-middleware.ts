import { BUILTIN_MIDDLEWARE } from "./builtin-middleware-ids.js";
import { reactiveCompaction, type ReactiveCompactionOptions } from "./compaction/reactive-compaction.js";
import { registerMiddlewareFactory } from "./durable-middleware.js";
import { permission, type DurablePermissionOptions } from "./permission/gate.js";
import { policy } from "./permission/policy.js";
import { retry, type RetryOptions } from "./retry/retry-middleware.js";

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

/** The ids this module registered. */
export const BUILTIN_MIDDLEWARE_IDS: readonly string[] = Object.values(BUILTIN_MIDDLEWARE);
