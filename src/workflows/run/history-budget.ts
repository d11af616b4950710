import { workflowInfo } from "@temporalio/workflow";
import type { ContinueAsNewPlan } from "../../contract/agent-plan.js";

/** True when this execution's history should end here (Temporal's suggestion, or the plan's limits). */
export function historyIsLong(plan: ContinueAsNewPlan, session?: { runsThisExecution: number }): boolean {
  const info = workflowInfo();
  return (
    info.continueAsNewSuggested ||
    info.historyLength > plan.maxHistoryEvents ||
    (plan.maxHistoryBytes !== undefined && info.historySize > plan.maxHistoryBytes) ||
    (session !== undefined && session.runsThisExecution >= plan.maxRunsPerExecution)
  );
}
