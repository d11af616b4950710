import type { PermissionPlan } from "../contract/agent-plan.js";
import { permission } from "../kernel/permission/gate.js";
import { policy } from "../kernel/permission/policy.js";
import type { ApprovalHandler } from "../kernel/permission/types.js";
import type { Middleware } from "../kernel/middleware/middleware.js";

/**
 * The `permission` middleware a plan asks for, with the given approver. Durable runs pass
 * `serializeApprovals: false` so several approvals can wait at once and be answered in any order; in-process
 * runs keep the seed's one-prompt-at-a-time default.
 */
export function planPermission(
  plan: PermissionPlan | undefined,
  approver: ApprovalHandler | undefined,
  serializeApprovals = true,
): Middleware[] {
  if (!plan) return [];
  const rules = policy({
    ...(plan.allow ? { allow: plan.allow } : {}),
    ...(plan.ask ? { ask: plan.ask } : {}),
    ...(plan.deny ? { deny: plan.deny } : {}),
    ...(plan.rules ? { rules: plan.rules } : {}),
    ...(plan.default ? { default: plan.default } : {}),
  });
  return [
    permission(rules, approver, {
      mode: plan.mode ?? "enforce",
      audit: plan.audit ?? false,
      serializeApprovals,
    }),
  ];
}
