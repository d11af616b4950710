import { workflowInfo, type ContinueAsNewOptions } from "@temporalio/workflow";

/**
 * True when the server says another worker deployment version is now this pinned session's target: it then continues
 * as new onto it at its next safe point. Read from the workflow task's start event, so replays see the same; always
 * false on an unversioned worker (docs/operations.md, "Rollout").
 */
export function targetVersionChanged(): boolean {
  return workflowInfo().targetWorkerDeploymentVersionChanged;
}

/**
 * How the session continues as new: onto the target version when one is waiting (the next execution's first task
 * goes there, and it is pinned there from then on), else with Temporal's defaults (it stays on its own version).
 */
export function continueAsNewOptions(): ContinueAsNewOptions {
  return targetVersionChanged() ? { initialVersioningBehavior: "AUTO_UPGRADE" } : {};
}
