/** The ids under which the kernel's own middleware factories are made again inside a durable run. */
export const BUILTIN_MIDDLEWARE = {
  retry: "lite-agent/retry",
  reactiveCompaction: "lite-agent/reactive-compaction",
  permission: "lite-agent/permission",
} as const;
