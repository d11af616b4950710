import {
  createBackgroundTasks as createKernelBackgroundTasks,
  type BackgroundTasksOptions,
} from "./kernel/background/background-tasks.js";
import type { BackgroundTasks } from "./kernel/background/types.js";
import type { KernelPorts } from "./kernel/vocabulary/ports.js";
import { nodePorts } from "./node-ports.js";

/** What the seed's `createBackgroundTasks` takes: the kernel's options, with this process's ports by default. */
export type BackgroundDeps = Omit<BackgroundTasksOptions, "ports"> & { ports?: KernelPorts };

/** A registry of background tasks (joinable and detached) owned by the caller; ids and timers from `nodePorts`. */
export function createBackgroundTasks(deps: BackgroundDeps): BackgroundTasks {
  return createKernelBackgroundTasks({ ...deps, ports: deps.ports ?? nodePorts });
}
