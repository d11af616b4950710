import type { WorkflowInterceptors } from "@temporalio/workflow";
import { UpdateAdmission } from "./update-admission.js";

/**
 * The workflow interceptors every bundle loads (src/runtime/workflow-bundle.ts): they show each activation's jobs to
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
          const kinds = jobs.map((job) => (job as { variant?: string }).variant ?? "unknown");
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
