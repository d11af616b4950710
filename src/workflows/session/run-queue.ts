import { uuid4 } from "@temporalio/workflow";
import type { QueuedRun } from "../../contract/carried-state.js";
import type { StartRunRequest, StartRunResult } from "../../contract/requests.js";

/**
 * The runs waiting their turn, in order. `startRun` adds to it (idempotent by run id), a cancel takes from it, the
 * workflow loop runs its head; carried across continue-as-new.
 */
export class RunQueue {
  constructor(private readonly runs: QueuedRun[]) {}

  get length(): number {
    return this.runs.length;
  }

  /** Takes the next run to execute. */
  shift(): QueuedRun | undefined {
    return this.runs.shift();
  }

  push(run: QueuedRun): void {
    this.runs.push(run);
  }

  /**
   * Queues a run at stream offset `offset`, or answers for one already known: queued (its own offset), running or
   * finished (`started`, offset 0).
   */
  start(request: StartRunRequest, offset: number, started: (runId: string) => boolean): StartRunResult {
    const runId = request.runId ?? uuid4();
    const known = this.runs.find((run) => run.runId === runId);
    if (known) return { runId, offset: known.offset };
    if (started(runId)) return { runId, offset: 0 };
    const queued: QueuedRun = { runId, input: request.input, offset };
    if (request.images) queued.images = request.images;
    this.runs.push(queued);
    return { runId, offset };
  }

  /** Removes the queued runs with this id (last first); returns them. */
  remove(runId: string | undefined): QueuedRun[] {
    const removed: QueuedRun[] = [];
    for (let index = this.runs.length - 1; index >= 0; index--) {
      const queued = this.runs[index]!;
      if (runId !== queued.runId) continue;
      this.runs.splice(index, 1);
      removed.push(queued);
    }
    return removed;
  }

  has(runId: string): boolean {
    return this.runs.some((run) => run.runId === runId);
  }

  /** The ids of the first `limit` queued runs, in order. */
  ids(limit: number): string[] {
    return this.runs.slice(0, limit).map((run) => run.runId);
  }

  /** The queue to carry into the next execution. */
  carry(): QueuedRun[] {
    return this.runs;
  }
}
