import type { Decision } from "../vocabulary/events.js";
import type { ToolCall } from "../vocabulary/tools.js";
import { compileGlob } from "./glob.js";
import { matchSpec, type MatchSpec } from "./match-spec.js";
import type { PermissionPolicy, PolicyVerdict } from "./types.js";

/** What a policy sees besides the call. */
export interface PolicyContext {
  sessionId: string;
}

/**
 * One content rule. It matches when every given part matches: `tool` (a tool-name glob or a list of them, any
 * may match), `when` (conditions on the input) and `where` (a predicate). `description` becomes the verdict's
 * `reason`.
 */
export interface PermissionRule {
  id?: string;
  description?: string;
  tool?: string | readonly string[];
  when?: MatchSpec;
  where?(call: ToolCall, ctx: PolicyContext): boolean;
  effect: Decision;
}

/** The options of `policy()`. `allow`, `ask` and `deny` are tool-name globs. */
export interface PolicyOptions {
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
  rules?: readonly PermissionRule[];
  /** The decision when no rule matches; `"allow"` when omitted. */
  default?: Decision;
}

/** True when `rule` applies to `call`. */
export function ruleMatches(rule: PermissionRule, call: ToolCall, ctx: PolicyContext): boolean {
  if (rule.tool !== undefined) {
    const globs = typeof rule.tool === "string" ? [rule.tool] : rule.tool;
    if (!globs.some((glob) => compileGlob(glob)(call.name))) return false;
  }
  if (rule.when !== undefined && !matchSpec(rule.when, call.input)) return false;
  return rule.where === undefined || rule.where(call, ctx);
}

/**
 * A rule-based policy: the first matching deny rule wins, then ask, then allow, then `default`; within an effect,
 * name lists come before content rules. Name-list matches return a bare decision; content rules return a verdict
 * with `ruleId` (`rule-<i>` unless given) and, when described, `reason`.
 */
export function policy(opts: PolicyOptions = {}): PermissionPolicy {
  const fallback: Decision = opts.default ?? "allow";
  const nameRule = (effect: Decision) => (tool: string) => ({ tool, effect });
  const rules: PermissionRule[] = [
    ...(opts.deny ?? []).map(nameRule("deny")),
    ...(opts.ask ?? []).map(nameRule("ask")),
    ...(opts.allow ?? []).map(nameRule("allow")),
    ...(opts.rules ?? []).map((rule, i) => ({ ...rule, id: rule.id ?? `rule-${i}` })),
  ];
  const byEffect = (effect: Decision) => rules.filter((rule) => rule.effect === effect);
  const ordered = [...byEffect("deny"), ...byEffect("ask"), ...byEffect("allow")];
  return {
    options: opts,
    check(call, ctx): Decision | PolicyVerdict {
      const rule = ordered.find((candidate) => ruleMatches(candidate, call, ctx));
      return rule === undefined ? fallback : verdictOf(rule);
    },
  };
}

/** The same as `policy()` but denying whatever no rule matches. */
export function strictPolicy(opts: Omit<PolicyOptions, "default"> = {}): PermissionPolicy {
  return policy({ ...opts, default: "deny" });
}

/** A bare decision for a rule without provenance (the legacy name lists), a verdict otherwise. */
function verdictOf(rule: PermissionRule): Decision | PolicyVerdict {
  if (rule.id === undefined && rule.description === undefined) return rule.effect;
  const verdict: PolicyVerdict = { decision: rule.effect };
  if (rule.id !== undefined) verdict.ruleId = rule.id;
  if (rule.description !== undefined) verdict.reason = rule.description;
  return verdict;
}
