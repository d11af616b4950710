import type { RunResult } from "../../kernel/vocabulary/events.js";
import { ZERO_USAGE, addUsage, type Usage } from "../../kernel/vocabulary/model.js";
import type { CarriedState } from "../../contract/carried-state.js";
import type { RunSummary } from "../../contract/run-summary.js";

/** How many finished runs' summaries the session remembers (the `runSummary` query answers from them). */
const KEPT_SUMMARIES = 50;

/** What the record carries into the next execution (in the carried state's own order). */
export type CarriedRecord = Pick<CarriedState, "runsCompleted" | "turns" | "usage" | "summaries">;

/**
 * The session's record of finished runs: counts, usage and the last summaries. Carried across continue-as-new;
 * the status, the outcome and the `runSummary` query read it.
 */
export class RunRecord {
  runsCompleted: number;
  /** Runs finished in this execution (the continue-as-new threshold counts them). */
  runsThisExecution = 0;
  turns: number;
  usage: Usage;
  private readonly summaries: RunSummary[];

  constructor(carried?: CarriedRecord) {
    this.runsCompleted = carried?.runsCompleted ?? 0;
    this.turns = carried?.turns ?? 0;
    this.usage = carried?.usage ?? ZERO_USAGE;
    this.summaries = carried?.summaries ?? [];
  }

  /** Records a run that ended (its turns and usage count). */
  finish(runId: string, result: RunResult, turns: number): void {
    this.runsCompleted++;
    this.runsThisExecution++;
    this.turns += turns;
    this.usage = addUsage(this.usage, result.usage);
    this.summaries.push({ runId, stopReason: result.stopReason, text: result.text, usage: result.usage });
    if (this.summaries.length > KEPT_SUMMARIES) this.summaries.shift();
  }

  /** Records a queued run cancelled before it started: a summary only, nothing counts. */
  abort(runId: string): void {
    this.summaries.push({ runId, stopReason: "aborted", text: "", usage: ZERO_USAGE });
  }

  /** Usage that belongs to the session, not to a run (detached background work). */
  addUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }

  /** The summary of the newest finished run. */
  last(): RunSummary | undefined {
    return this.summaries.at(-1);
  }

  /** The summary of a finished run the session still remembers. */
  summary(runId: string): RunSummary | undefined {
    return this.summaries.find((summary) => summary.runId === runId);
  }

  carry(): CarriedRecord {
    const { runsCompleted, turns, usage, summaries } = this;
    return { runsCompleted, turns, usage, summaries };
  }
}
