import type { AbortSignalLike } from "../vocabulary/ports.js";
import type { AgentEvent } from "../vocabulary/events.js";
import type { BackgroundCompletion, BackgroundStatus } from "./background-completion.js";

export type { BackgroundCompletion, BackgroundStatus };

/** Whether a task blocks its run from ending (`joinable`) or not (`detached`). */
export type BackgroundKind = "joinable" | "detached";

/** A task's result with its status (`partial` keeps the output of work that did not finish). */
export interface BackgroundRunResult {
  content: string;
  status: BackgroundStatus;
}

/** What a task's `run` returns: a string is `completed`. */
export type BackgroundOutcome = string | BackgroundRunResult;

/** What `spawn` returns, and what `listDetached` lists. */
export interface BackgroundHandle {
  id: string;
  label: string;
}

/** New output of a detached task since the last read; `done` once it has finished. */
export interface BackgroundRead {
  output: string;
  done: boolean;
}

/** A task to start in the background. */
export interface BackgroundSpawn {
  label: string;
  /** `joinable` (default) blocks the run from ending; `detached` never does. */
  kind?: BackgroundKind;
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
  spawn(task: BackgroundSpawn): BackgroundHandle;
  pendingJoinable(): number;
  pendingDetached(): number;
  hasCompleted(): boolean;
  takeCompleted(): BackgroundCompletion[];
  /**
   * Resolves when the next joinable task completes (or at once when one already has, or none is running).
   * Also resolves, never rejects, when `signal` aborts: callers check `signal.aborted`.
   */
  waitNextJoinable(signal?: AbortSignalLike): Promise<void>;
  read(id: string, options?: { filter?: RegExp }): BackgroundRead | null;
  /** Every detached task of this registry, finished ones with `done: true`. */
  listDetached(): { id: string; label: string; done: boolean }[];
  cancel(id: string): boolean;
  cancelAll(): void;
  /** Resolves once no joinable task is running (at once when none is); a registry may leave it out. */
  joinableStopped?(): Promise<void>;
}

/** The seed's name for {@link BackgroundSpawn}. */
export type BackgroundSpawnOptions = BackgroundSpawn;
