import type { RunResult } from "../vocabulary/events.js";
import type { ForkOptions } from "../vocabulary/tools.js";
import type { BackgroundTasks } from "../background/types.js";
import type { ContextEngine } from "../context/types.js";
import type { EventOutlet } from "../coroutine/event-outlet.js";
import type { EventSink } from "../coroutine/event-sink.js";
import type { KernelConfig, SteerSource } from "./kernel-config.js";
import type { AgentContext, Middleware } from "../middleware/middleware.js";
import type { Usage } from "../vocabulary/model.js";
import type { AbortSignalLike } from "../vocabulary/ports.js";
import type { SessionLog } from "../checkpoint/session-log.js";
import type { AnyTool, ToolSpec } from "../vocabulary/tools.js";

/** Kernel settings with every default applied. */
export interface ResolvedConfig extends KernelConfig {
  modelName: string;
  use: Middleware[];
  tools: AnyTool[];
  maxTurns: number;
  maxParallelTools: number;
  maxDecodeRetries: number;
}

/** Everything one run carries between its phases. */
export interface RunState {
  readonly config: ResolvedConfig;
  readonly sessionId: string;
  readonly ctx: AgentContext & { turn: number };
  readonly log: SessionLog;
  readonly sink: EventSink;
  /** Where the loop delivers events (the consumer's side; `sink` collects what hooks and tools emit). */
  readonly out: EventOutlet;
  readonly signal: AbortSignalLike;
  readonly toolsByName: ReadonlyMap<string, AnyTool>;
  readonly specs: ToolSpec[];
  readonly steer: SteerSource | undefined;
  /** The registry tools see, and whether this run owns (joins and cancels) it. */
  readonly background: { tasks: BackgroundTasks; owned: boolean } | undefined;
  readonly engine: ContextEngine | undefined;
  readonly forkId: string | undefined;
  usage: Usage;
  /** Set when a `beforeToolCall` hook aborts the run. */
  abortedByHook: string | undefined;
  snapshotBytes: number;
  /** Set when the run has finished. */
  result?: RunResult;
  /** Runs a fork of this agent to completion, forwarding its events; absent inside a fork (single level). */
  fork: ((input: string, options?: ForkOptions) => Promise<RunResult>) | undefined;
}

/** Applies the kernel's defaults. */
export function resolveConfig(config: KernelConfig): ResolvedConfig {
  return {
    ...config,
    modelName: config.modelName ?? config.model.id,
    use: config.use ?? [],
    tools: config.tools ?? [],
    maxTurns: config.maxTurns ?? 50,
    maxParallelTools: Math.max(1, config.maxParallelTools ?? 10),
    maxDecodeRetries: config.maxDecodeRetries ?? 2,
  };
}
