import type { Usage } from "../kernel/vocabulary/model.js";

// The answer of the `runSummary` query, also carried across continue-as-new: fields are only added, optional.

/** The outcome of a run, as the session remembers it. */
export interface RunSummary {
  runId: string;
  stopReason: string;
  text: string;
  usage: Usage;
}
