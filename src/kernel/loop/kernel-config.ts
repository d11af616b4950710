import type { BackgroundLimits, BackgroundTasks } from "../background/types.js";
import type { ToolCallCodec } from "../codecs/types.js";
import type { ContextArchive, ContextPlanner } from "../context/types.js";
import type { EffectRunner } from "../vocabulary/effects.js";
import type { RunBudget } from "../vocabulary/budget.js";
import type { AgentEvent, RunResult } from "../vocabulary/events.js";
import type { ImageBlock, Message } from "../vocabulary/messages.js";
import type { Middleware } from "../middleware/middleware.js";
import type { ModelProvider, SamplingSettings } from "../vocabulary/model.js";
import type { ApprovalHandler, InputHandler } from "../permission/types.js";
import type { AbortSignalLike, KernelPorts } from "../vocabulary/ports.js";
import type { RunSnapshot, SuspendPort } from "../vocabulary/run-snapshot.js";
import type { Checkpointer } from "../vocabulary/session-events.js";
import type { AnyTool, Sandbox } from "../vocabulary/tools.js";
import type { ToolSource } from "../vocabulary/tool-source.js";

/** Everything an agent is made of. `createAgent` takes this without `ports`. */
export interface KernelConfig extends SamplingSettings {
  model: ModelProvider;
  /** Sent as `ModelRequest.model`; defaults to `model.id`. */
  modelName?: string;
  codec: ToolCallCodec;
  tools?: AnyTool[];
  /** Tools listed at run time (an MCP server's), added after `tools` at each run's start. */
  toolSources?: ToolSource[];
  /** Middleware, outer → inner. */
  use?: Middleware[];
  system?: string;
  /** Default 50; when used up the run ends with `max_turns`. */
  maxTurns?: number;
  sandbox?: Sandbox;
  input?: InputHandler;
  approval?: ApprovalHandler;
  checkpointer?: Checkpointer;
  /** Per-turn tool concurrency; default 10, 1 = one after another. */
  maxParallelTools?: number;
  /** Whether tools get `ctx.background`; default true. */
  background?: boolean;
  backgroundLimits?: BackgroundLimits;
  /** An externally owned registry: never joined or cancelled by the kernel. */
  backgroundTasks?(sessionId: string): BackgroundTasks;
  /**
   * Where the run's detached tasks go: a registry that outlives the run (the durable session's), never cancelled by
   * the kernel. Its completions are delivered at turn start like the run's own; joinable tasks stay the run's.
   */
  detachedTasks?: BackgroundTasks;
  /** Where a tool's `ctx.fork` runs; default: a sub-loop in this process, its events inline in the run's stream. */
  forkRunner?: ForkRunner;
  /**
   * What a run ending with joinable background tasks still running waits for after cancelling them, before `done`:
   * given the promise that all have stopped, the promise to wait for (undefined: none). Default: no wait. The durable
   * driver waits, within a bound, for its child sessions, so none is left running or waiting after the run's `done`.
   */
  awaitBackgroundStop?: (stopped: Promise<void>) => Promise<void> | undefined;
  /** Codec repair attempts; default 2. */
  maxDecodeRetries?: number;
  /** `"safe"` records tool starts and recovers interrupted calls; default `"off"`. */
  crashRecovery?: "off" | "safe";
  /** File-snapshot quota per session; beyond it snapshots are stored as `before: null, truncated: true`. */
  maxSnapshotBytesPerSession?: number;
  /** The ContextEngine: disabled unless an object is given. */
  context?: false | ContextOptions;
  /** Token and cost limits, checked before each model call; none unless given. */
  budget?: RunBudget;
  /** Where middleware's `ctx.effect` calls run; without it every effect call rejects as not implemented. */
  effects?: EffectRunner;
  /** Time, randomness, ids and sleep. */
  ports: KernelPorts;
}

/** ContextEngine settings. */
export interface ContextOptions {
  windowTokens?: number;
  planner?: ContextPlanner;
  /** How long L3 waits for the planner; default 100 ms (a durable planner, an activity, needs longer). */
  plannerTimeoutMs?: number;
  archive?: ContextArchive;
}

/** The seed's name for {@link ContextOptions}. */
export type KernelContextOptions = ContextOptions;

/** Where steering messages come from; `SteerController` is one, the workflow driver's signal queue another. */
export interface SteerSource {
  takeSteers(): Message[];
  takeFollowUps(): Message[];
  /**
   * Subscribes to interrupts: the in-flight model call is cancelled and the run re-plans at once with the
   * queued steers. Returns the unsubscribe function.
   */
  onInterrupt?(listener: () => void): () => void;
}

/** Options of one run. */
export interface RunOptions {
  signal?: AbortSignalLike;
  /** Default: a fresh id per run (a new session). */
  sessionId?: string;
  steer?: SteerSource;
  /** Prior conversation placed before the input; system messages in it are dropped. */
  history?: Message[];
  /** Images attached to the input user message. */
  images?: ImageBlock[];
  /** Goes on with a run paused by `suspend` (its input is already in the snapshot's messages). */
  resume?: RunSnapshot;
  /** Lets the driver pause the run at a turn boundary or leave it in a tool phase (the workflow's continue-as-new). */
  suspend?: SuspendPort;
}

/** The input of a run: a string becomes one user message. */
export type RunInput = string | Message[];

/** A fork to run, as the kernel hands it to a {@link ForkRunner}. */
export interface ForkRequest {
  /** The fork's first user message. */
  input: string;
  forkId: string;
  /** The fork's own session: `<parent session>/<forkId>`. */
  sessionId: string;
  /** The conversation the fork starts from: the parent's, before the assistant message that called the tool. */
  seed: Message[];
  /** The names of the tools the fork may use (`ForkOptions.tools`); the agent's own when absent. */
  toolNames?: string[];
  /** The parent run's signal: cancelling the parent cancels the fork. */
  signal: AbortSignalLike;
  /** Into the parent run's stream. */
  emit(event: AgentEvent): void;
}

/**
 * Runs a fork somewhere else than in this process's loop: the durable driver starts a child workflow. The kernel
 * adds the result's usage to the parent run.
 */
export type ForkRunner = (request: ForkRequest) => Promise<RunResult>;
