import type { State, Worker } from "@temporalio/worker";

/**
 * The Temporal workers of one `createWorker` call: one per agent, each polling its agent's task queue
 * (`<base>.<agent>`; a Temporal worker polls exactly one queue). They run, stop and fail together.
 */
export class AgentWorker {
  constructor(
    /** Each agent's worker, by agent name; `tools:<queue>` for a tool queue's activity-only worker. */
    readonly workers: ReadonlyMap<string, Worker>,
    private readonly onStopped: () => Promise<void> = async () => undefined,
  ) {}

  /** The task queues polled, by agent name (or `tools:<queue>`). */
  get taskQueues(): Record<string, string> {
    return Object.fromEntries([...this.workers].map(([agent, worker]) => [agent, worker.options.taskQueue]));
  }

  /** `RUNNING` while any worker runs, `FAILED` when any failed, else the workers' common state. */
  getState(): State {
    const states = [...this.workers.values()].map((worker) => worker.getState());
    if (states.includes("FAILED")) return "FAILED";
    if (states.includes("RUNNING")) return "RUNNING";
    return states.find((state) => state !== "STOPPED") ?? "STOPPED";
  }

  /** Starts a graceful shutdown of every running worker (in-flight tasks finish). */
  shutdown(): void {
    for (const worker of this.workers.values()) if (worker.getState() === "RUNNING") worker.shutdown();
  }

  /** Runs every worker until all have stopped. When one fails, the others are shut down and its error is thrown. */
  async run(): Promise<void> {
    const runs = [...this.workers.values()].map((worker) =>
      worker.run().catch((error: unknown) => {
        this.shutdown();
        throw error;
      }),
    );
    try {
      const outcomes = await Promise.allSettled(runs);
      const failed = outcomes.find((outcome) => outcome.status === "rejected");
      if (failed) throw failed.reason;
    } finally {
      await this.onStopped();
    }
  }
}
