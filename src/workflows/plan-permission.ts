import type { PermissionPlan } from "../common/agent-plan.js";
import { permission } from "../kernel/permission/gate.js";
import { policy } from "../kernel/permission/policy.js";
import type { ApprovalHandler } from "../kernel/permission/types.js";
import type { Middleware } from "../kernel/middleware.js";

/**
 * The `permission` middleware a plan asks for, with the durable approver. Approvals are not serialised: several
 * can wait at once and be answered in any order.
 */
export function planPermission(plan: PermissionPlan | undefined, approver: ApprovalHandler): Middleware[] {
  if (!plan) return [];
  const rules = policy({
    ...(plan.allow ? { allow: plan.allow } : {}),
    ...(plan.ask ? { ask: plan.ask } : {}),
    ...(plan.deny ? { deny: plan.deny } : {}),
    ...(plan.rules ? { rules: plan.rules } : {}),
    ...(plan.default ? { default: plan.default } : {}),
  });
  return [permission(rules, approver, { mode: plan.mode ?? "enforce", audit: plan.audit ?? false, serializeApprovals: false })];
}
