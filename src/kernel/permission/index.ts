/** The permission layer: the policy DSL, the gate middleware and their building blocks. */
export type {
  ApprovalAnswer,
  ApprovalHandler,
  InputHandler,
  PermissionPolicy,
  PolicyVerdict,
  UserAnswer,
  UserQuestion,
} from "./types.js";
export {
  policy,
  strictPolicy,
  ruleMatches,
  type PermissionRule,
  type PolicyContext,
  type PolicyOptions,
} from "./policy.js";
export { composePolicies } from "./compose-policies.js";
export { matchCondition, matchSpec, getPath, type Condition, type MatchSpec } from "./match-spec.js";
export { compileGlob, globMatch, globToRegExp, type GlobMatcher } from "./glob.js";
export { dequal as deepEqual } from "dequal";
export { defaultRedactor, redactString, type Redactor } from "./redact.js";
export { permission, type PermissionOptions } from "./gate.js";
export { serialLock, type LockSlot, type SerialLock } from "./serial-lock.js";
