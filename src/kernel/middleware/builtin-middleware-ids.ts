/** The ids under which the kernel's own middleware factories are made again inside a durable run. */
export const BUILTIN_MIDDLEWARE = {
  retry: "lite-agent/retry",
  reactiveCompaction: "lite-agent/reactive-compaction",
  permission: "lite-agent/permission",
  compaction: "lite-agent/compaction",
} as const;

/** The ids of the kernel's compactors that a durable `compaction()` can make again. */
export const BUILTIN_COMPACTORS = {
  default: "default",
  tokenBudget: "token-budget",
} as const;
