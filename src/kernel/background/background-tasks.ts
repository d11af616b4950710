import { AbortError, errorMessage } from "../vocabulary/errors.js";
import { NEVER_ABORTED, type AbortSignalLike, type KernelPorts } from "../vocabulary/ports.js";
import type { AgentEvent } from "../vocabulary/events.js";
import { checkSpawnLimits, type BackgroundKind } from "./background-limits.js";
import { DEFAULT_BACKGROUND_BUFFER_CHARS, DetachedOutputs } from "./detached-outputs.js";
import type {
  BackgroundCompletion,
  BackgroundLimits,
  BackgroundOutcome,
  BackgroundSpawn,
  BackgroundStatus,
  BackgroundTasks,
} from "./types.js";

/** What `createBackgroundTasks` needs. */
export interface BackgroundTasksOptions {
  /** The run-level event sink, handed to every task. */
  emit: (event: AgentEvent) => void;
  /** The owner's signal: when it aborts, every task is cancelled and later spawns start cancelled. */
  signal: AbortSignalLike;
  /** Randomness for ids and the sleep that enforces `limits.maxTaskMs`. */
  ports: KernelPorts;
  limits?: BackgroundLimits;
  /** Called after a completion has joined the delivery queue. Errors it throws are ignored. */
  onCompleted?: (completion: BackgroundCompletion) => void;
}

interface LiveTask {
  kind: BackgroundKind;
  label: string;
  awaitIdle: boolean;
  controller: AbortController;
  /** Cancels the `maxTaskMs` sleep once the task is over, so no timer outlives it. */
  timer?: AbortController;
  cancelled: boolean;
}

interface QueuedCompletion {
  completion: BackgroundCompletion;
  kind: BackgroundKind;
}

interface Settled {
  content: string;
  status: BackgroundStatus;
}

const CANCELLED: Settled = { content: "Error: background task cancelled", status: "cancelled" };

/**
 * Creates a registry of background tasks for one owner. `spawn` starts a task at once; joinable ones (the default)
 * keep the run from ending. A returned string is `completed`, a throw or passing `limits.maxTaskMs` is `failed`; a
 * task cancelled (by `cancel` or the owner's signal) is recorded `cancelled` when it settles, unless it gave a status.
 */
export function createBackgroundTasks(options: BackgroundTasksOptions): BackgroundTasks {
  return new BackgroundRegistry(options);
}

class BackgroundRegistry implements BackgroundTasks {
  private readonly live = new Map<string, LiveTask>();
  private readonly outputs: DetachedOutputs;
  private queue: QueuedCompletion[] = [];
  private readonly joinWaiters = new Set<() => void>();
  private sequence = 0;

  constructor(private readonly options: BackgroundTasksOptions) {
    this.outputs = new DetachedOutputs(options.limits?.bufferBytes ?? DEFAULT_BACKGROUND_BUFFER_CHARS);
    // One listener for the registry's lifetime: tasks share the owner's signal through cancelAll.
    options.signal.addEventListener("abort", () => this.cancelAll(), { once: true });
  }

  spawn(task: BackgroundSpawn): { id: string; label: string } {
    const kind = task.kind ?? "joinable";
    checkSpawnLimits(this.options.limits ?? {}, kind, {
      total: this.live.size,
      ofKind: this.countLive(kind),
    });
    const id = this.nextId();
    const entry: LiveTask = {
      kind,
      label: task.label,
      awaitIdle: task.awaitIdle ?? true,
      controller: new AbortController(),
      cancelled: false,
    };
    this.live.set(id, entry);
    if (kind === "detached") this.outputs.add(id, task.label);
    if (this.options.signal.aborted) {
      // The owner is gone: record the task as cancelled without starting work nobody will collect.
      entry.cancelled = true;
      this.finish(id, CANCELLED);
    } else {
      this.startTimer(id, entry);
      void this.execute(id, entry, task);
    }
    return { id, label: task.label };
  }

  pendingJoinable(): number {
    return this.countLive("joinable");
  }

  pendingDetached(): number {
    return this.countLive("detached");
  }

  hasCompleted(): boolean {
    return this.queue.length > 0;
  }

  takeCompleted(): BackgroundCompletion[] {
    const taken = this.queue.map((queued) => queued.completion);
    this.queue = [];
    return taken;
  }

  waitNextJoinable(signal: AbortSignalLike = NEVER_ABORTED): Promise<void> {
    const ready = this.queue.some((queued) => queued.kind === "joinable");
    if (ready || signal.aborted || this.pendingJoinable() === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        signal.removeEventListener("abort", wake);
        this.joinWaiters.delete(wake);
        resolve();
      };
      this.joinWaiters.add(wake);
      signal.addEventListener("abort", wake, { once: true });
    });
  }

  read(id: string, options?: { filter?: RegExp }): { output: string; done: boolean } | null {
    return this.outputs.read(id, options);
  }

  listDetached(): { id: string; label: string; done: boolean }[] {
    return this.outputs.list();
  }

  cancel(id: string): boolean {
    const task = this.live.get(id);
    if (!task) return false;
    if (!task.cancelled) {
      task.cancelled = true;
      task.controller.abort(new AbortError("background task cancelled"));
    }
    return true;
  }

  cancelAll(): void {
    for (const id of [...this.live.keys()]) this.cancel(id);
  }

  joinableStopped(): Promise<void> {
    if (this.pendingJoinable() === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      // Woken by every joinable task's end, like a join; done once the last one has ended.
      const check = (): void => {
        if (this.pendingJoinable() > 0) return;
        this.joinWaiters.delete(check);
        resolve();
      };
      this.joinWaiters.add(check);
    });
  }

  private async execute(id: string, task: LiveTask, spawn: BackgroundSpawn): Promise<void> {
    const write = (chunk: string): void => this.outputs.write(id, chunk);
    let settled: Settled;
    try {
      const outcome = await spawn.run(task.controller.signal, this.options.emit, write);
      settled = fromOutcome(outcome, task.cancelled);
    } catch (error) {
      settled = { content: `Error: ${errorMessage(error)}`, status: task.cancelled ? "cancelled" : "failed" };
    }
    this.finish(id, settled);
  }

  private startTimer(id: string, task: LiveTask): void {
    const maxTaskMs = this.options.limits?.maxTaskMs;
    if (maxTaskMs === undefined) return;
    task.timer = new AbortController();
    this.options.ports.sleep(maxTaskMs, task.timer.signal).then(
      () => this.timeOut(id, maxTaskMs),
      () => {}, // the task ended first and cancelled the sleep
    );
  }

  private timeOut(id: string, maxTaskMs: number): void {
    const task = this.live.get(id);
    if (!task) return;
    const message = `background task timed out after ${maxTaskMs}ms`;
    task.controller.abort(new AbortError(message));
    // Finish now rather than when the task settles: the limit must hold even for a task that ignores its signal.
    this.finish(id, task.cancelled ? CANCELLED : { content: `Error: ${message}`, status: "failed" });
  }

  private finish(id: string, settled: Settled): void {
    const task = this.live.get(id);
    if (!task) return; // already finished by a timeout; the late result is dropped
    this.live.delete(id);
    task.timer?.abort();
    this.outputs.markDone(id);
    const completion: BackgroundCompletion = {
      id,
      label: task.label,
      content: settled.content,
      status: settled.status,
      isError: settled.status !== "completed",
      ...(task.awaitIdle ? {} : { awaitIdle: false }),
    };
    this.queue.push({ completion, kind: task.kind });
    if (task.kind === "joinable") for (const wake of [...this.joinWaiters]) wake();
    this.notifyCompleted(completion);
  }

  private notifyCompleted(completion: BackgroundCompletion): void {
    try {
      this.options.onCompleted?.(completion);
    } catch {
      // A failing listener must not lose the completion or break the task's settle path; it is already queued.
    }
  }

  private nextId(): string {
    const hex = Math.floor(this.options.ports.random() * 0x1000000)
      .toString(16)
      .padStart(6, "0");
    return `bg_${(this.sequence++).toString(36)}_${hex.slice(-6)}`;
  }

  private countLive(kind: BackgroundKind): number {
    let count = 0;
    for (const task of this.live.values()) if (task.kind === kind) count++;
    return count;
  }
}

/** A returned string is `completed` (or `cancelled` after a cancel); an explicit outcome keeps its status. */
function fromOutcome(outcome: BackgroundOutcome, cancelled: boolean): Settled {
  if (typeof outcome === "string") return { content: outcome, status: cancelled ? "cancelled" : "completed" };
  return { content: outcome.content, status: outcome.status };
}
