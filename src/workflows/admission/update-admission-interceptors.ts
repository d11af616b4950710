import type { WorkflowInterceptors } from "@temporalio/workflow";
import { TASK_BOUNDARY_JOB, UpdateAdmission } from "./update-admission.js";
import { taskBoundarySignal } from "../../contract/messages.js";

type Job = { variant?: string; signalWorkflow?: { signalName?: string | null } | null };

/** A job's kind: its variant, or {@link TASK_BOUNDARY_JOB} for the task boundary signal. */
function jobKind(job: Job): string {
  if (job.variant === "signalWorkflow" && job.signalWorkflow?.signalName === taskBoundarySignal.name)
    return TASK_BOUNDARY_JOB;
  return job.variant ?? "unknown";
}

/**
 * The workflow interceptors every bundle loads (src/worker/workflow-bundle.ts): they show each activation's jobs to
 * the session's {@link UpdateAdmission} and ask it, after an update's own validator passed, whether the update may be
 * accepted now. One admission per workflow.
 */
export const interceptors = (): WorkflowInterceptors => {
  const admission = new UpdateAdmission();
  return {
    internals: [
      {
        activate(input, next) {
          const jobs = input.activation.jobs ?? [];
          const kinds = jobs.map(jobKind);
          admission.observe(kinds, input.activation.isReplaying === true);
          return next(input);
        },
      },
    ],
    inbound: [
      {
        validateUpdate(input, next) {
          next(input);
          admission.admit(input.updateId);
        },
      },
    ],
  };
};
