import { ApplicationFailure } from "@temporalio/workflow";
import { SESSION_BUSY } from "../../contract/messages.js";

/** Refused updates remembered by id until they come back (a client that gives up leaves its id behind). */
const KEPT_REFUSALS = 64;

/** The kind of a `taskBoundary` signal's job (src/contract/messages.ts): its handler does nothing. */
export const TASK_BOUNDARY_JOB = "taskBoundary";

/** Jobs that make no command and change nothing a command depends on. Updates count once admitted. */
const INERT_JOBS: ReadonlySet<string> = new Set([
  "doUpdate",
  TASK_BOUNDARY_JOB,
  "queryWorkflow",
  "removeFromCache",
  "notifyHasPatch",
  "updateRandomSeed",
]);

/** The kinds of the jobs of one activation (`resolveActivity`, `doUpdate`, ...). */
export type JobKinds = readonly string[];

/**
 * Admits an update only into a workflow task holding nothing else (a live worker may split a task into two
 * activations where a replay takes one and accepts the update first): after a provable task boundary (start, replay
 * end, this update's earlier refusal), else it fails with {@link SESSION_BUSY}. Why and how: docs/architecture.md.
 */
export class UpdateAdmission {
  /** Activations seen, queries not counted. */
  private activation = 0;
  /** The newest activation that did work: ran jobs other than updates, or admitted an update. */
  private lastWork = 0;
  /** The activation that started the workflow: its commands count as work from the next activation on. */
  private startedAt = 0;
  private readonly refusedAt = new Map<string, number>();

  /**
   * Called with each activation's jobs before they run. `replaying`: the activation replays a task the history
   * holds as completed, so what it does is in a finished task and counts as no work (a worker that takes the session
   * over, or runs without a cache, admits an update its first live activation holds alone).
   */
  observe(jobs: JobKinds, replaying: boolean): void {
    if (jobs.length > 0 && jobs.every((job) => job === "queryWorkflow")) return;
    this.activation++;
    if (replaying) return;
    if (jobs.includes("initializeWorkflow")) this.startedAt = this.activation;
    if (jobs.some((job) => !INERT_JOBS.has(job) && job !== "initializeWorkflow"))
      this.lastWork = this.activation;
  }

  /**
   * Admits the update (it then counts as work), or throws the retryable {@link SESSION_BUSY} refusal. Call only
   * from validators: they run live, never on replay.
   */
  admit(updateId: string): void {
    // An update that comes with the start is taken in the start's activation, before the workflow function runs.
    const started = this.startedAt < this.activation ? this.startedAt : 0;
    const boundary = this.refusedAt.get(updateId) ?? 0;
    if (Math.max(this.lastWork, started) > boundary) this.refuse(updateId);
    this.refusedAt.delete(updateId);
    this.lastWork = this.activation;
  }

  private refuse(updateId: string): never {
    this.refusedAt.delete(updateId);
    this.refusedAt.set(updateId, this.activation);
    if (this.refusedAt.size > KEPT_REFUSALS) this.refusedAt.delete(this.refusedAt.keys().next().value!);
    throw ApplicationFailure.retryable(
      "the session took other work in this workflow task; send the update again with the same update id",
      SESSION_BUSY,
    );
  }
}
