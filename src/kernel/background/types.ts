import type { AbortSignalLike } from "../vocabulary/ports.js";
import type { AgentEvent } from "../vocabulary/events.js";
import type { BackgroundCompletion, BackgroundStatus } from "./background-completion.js";

export type { BackgroundCompletion, BackgroundStatus };

/** What a task's `run` returns. */
export type BackgroundOutcome = string | { content: string; status: BackgroundStatus };

/** A task to start in the background. */
export interface BackgroundSpawn {
  label: string;
  /** `joinable` (default) blocks the run from ending; `detached` never does. */
  kind?: "joinable" | "detached";
  awaitIdle?: boolean;
  run(
    signal: AbortSignalLike,
    emit: (event: AgentEvent) => void,
    write: (chunk: string) => void,
  ): Promise<BackgroundOutcome>;
}

/** Limits on a registry; exceeding one throws at spawn. */
export interface BackgroundLimits {
  maxTotal?: number;
  maxJoinable?: number;
  maxDetached?: number;
  /** Ring buffer size for detached output, in characters. Default 1 000 000. */
  bufferBytes?: number;
  /** A task running longer is aborted and marked failed. */
  maxTaskMs?: number;
}

/** A registry of background tasks. */
export interface BackgroundTasks {
  spawn(task: BackgroundSpawn): { id: string; label: string };
  pendingJoinable(): number;
  pendingDetached(): number;
  hasCompleted(): boolean;
  takeCompleted(): BackgroundCompletion[];
  /**
   * Resolves when the next joinable task completes (or at once when one already has, or none is running).
   * Also resolves, never rejects, when `signal` aborts: callers check `signal.aborted`.
   */
  waitNextJoinable(signal?: AbortSignalLike): Promise<void>;
  read(id: string, options?: { filter?: RegExp }): { output: string; done: boolean } | null;
  /** Every detached task of this registry, finished ones with `done: true`. */
  listDetached(): { id: string; label: string; done: boolean }[];
  cancel(id: string): boolean;
  cancelAll(): void;
  /** Resolves once no joinable task is running (at once when none is); a registry may leave it out. */
  joinableStopped?(): Promise<void>;
}
