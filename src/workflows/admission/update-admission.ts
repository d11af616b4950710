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
 * Admits an update only into a workflow task that holds nothing else. The SDK's live worker may take one workflow
 * task in two activations (its new events, then an update that came with it: seen after workflow tasks timed out on
 * killed or stalled workers), and then records the update's acceptance after the commands of the first; a replay
 * takes the task in one activation, accepts the update first and fails with a nondeterminism error. No activation
 * tells which workflow task it belongs to, so an update is admitted only while nothing else happened since a task
 * boundary the session can prove: the session's start, the end of a replay (what a replay took is in finished tasks),
 * or the activation that refused this same update before (the client sees a refusal only once its task has completed,
 * so what came before it is in finished tasks). A refused
 * update fails with {@link SESSION_BUSY}; the client sends it again with the same id, and then it is admitted unless
 * work came in the meantime. A worker without the session cached (a cold worker's first task, or a worker with no
 * cache) takes a finished task that made no command in the same activation as the next task's update (the core
 * treats such a task as part of the next one), while a replay takes that task apart, before the update: it refuses
 * the update, and since a refused update leaves no event, every attempt finds the same history. So a client refused
 * twice with no new event between sends the `taskBoundary` signal ({@link TASK_BOUNDARY_JOB}, no work): its event
 * closes the finished task, and the next attempt comes with nothing but it. Replays never ask (validators run only live), so histories replay
 * whatever a live worker saw. docs/architecture.md, "Updates".
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
