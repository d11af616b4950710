import { compileGlob } from "../kernel/permission/glob.js";
import type { ApproverRule, ApproverSet, ApproverSettings, SigningSettings } from "../contract/approvers.js";
import { checkApproverKeys } from "./signature-check.js";

function patterns(rule: ApproverRule): string[] {
  return typeof rule.tools === "string" ? [rule.tools] : rule.tools;
}

/**
 * Who may decide an approval of `tool`: every rule whose pattern matches contributes its actors and groups. Undefined
 * when no rule names the tool (or there are none): anyone may decide, as without approvers.
 */
export function approversFor(settings: ApproverSettings | undefined, tool: string): ApproverSet | undefined {
  const matching = (settings?.approvers ?? []).filter((rule) =>
    patterns(rule).some((pattern) => compileGlob(pattern)(tool)),
  );
  if (matching.length === 0) return undefined;
  const actors = new Set<string>();
  const groups: Record<string, string[]> = {};
  for (const rule of matching) {
    for (const actor of rule.actors ?? []) actors.add(actor);
    for (const group of rule.groups ?? []) groups[group] = [...(settings?.groups?.[group] ?? [])];
  }
  return { actors: [...actors], groups };
}

/**
 * The keys a decision on `tool` is checked against, and whether the rules naming it require a signature.
 * Undefined when the plan declares no keys and requires none.
 */
export function signingFor(
  settings: ApproverSettings | undefined,
  tool: string,
): SigningSettings | undefined {
  const required = (settings?.approvers ?? []).some(
    (rule) => rule.requireSignature === true && patterns(rule).some((pattern) => compileGlob(pattern)(tool)),
  );
  const keys = settings?.approverKeys ?? [];
  if (keys.length === 0 && !required) return undefined;
  return {
    keys: keys.map(({ id, actor, publicKey }) => ({ id, actor, publicKey })),
    ...(required ? { required } : {}),
  };
}

/** Whether `actor` may decide under `set` (named, or a member of one of its groups). */
export function mayDecide(set: ApproverSet, actor: string | undefined): boolean {
  if (actor === undefined || actor === "") return false;
  return set.actors.includes(actor) || Object.values(set.groups).some((members) => members.includes(actor));
}

/** `alice, group finance (bob, carol)`: who may decide, for error messages and the UI. */
export function describeApprovers(set: ApproverSet): string {
  const parts = [
    ...set.actors,
    ...Object.entries(set.groups).map(
      ([group, members]) => `group ${group} (${members.length > 0 ? members.join(", ") : "no members"})`,
    ),
  ];
  return parts.length > 0 ? parts.join(", ") : "nobody";
}

/**
 * Checks approver rules and group definitions, with the worker's groups filling names the plan does not define.
 * Returns the first problem (a malformed rule, a bad pattern, a group nobody defines), or undefined.
 */
export function checkApproverSettings(
  settings: ApproverSettings,
  workerGroups: Record<string, string[]> = {},
): string | undefined {
  const { approvers, groups } = settings;
  const keys = checkApproverKeys(settings.approverKeys);
  if (keys !== undefined || approvers === undefined) return keys;
  if (!Array.isArray(approvers))
    return "permission.approvers must be an array of { tools, actors?, groups? }";
  const defined = { ...workerGroups, ...groups };
  for (const [name, members] of Object.entries(defined)) {
    if (!Array.isArray(members) || !members.every((member) => typeof member === "string" && member !== ""))
      return `approver group '${name}' must be a list of actor names`;
  }
  for (const [index, rule] of approvers.entries()) {
    const where = `permission.approvers[${index}]`;
    if (typeof rule !== "object" || rule === null) return `${where} must be { tools, actors?, groups? }`;
    const tools = typeof rule.tools === "string" ? [rule.tools] : rule.tools;
    if (
      !Array.isArray(tools) ||
      tools.length === 0 ||
      !tools.every((tool) => typeof tool === "string" && tool)
    )
      return `${where}.tools must be a tool name pattern or a non-empty list of them`;
    for (const pattern of tools) {
      try {
        compileGlob(pattern);
      } catch (error) {
        return `${where}.tools: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    for (const key of ["actors", "groups"] as const) {
      const list = rule[key];
      if (
        list !== undefined &&
        (!Array.isArray(list) || !list.every((item) => typeof item === "string" && item))
      )
        return `${where}.${key} must be a list of names`;
    }
    if ((rule.actors?.length ?? 0) + (rule.groups?.length ?? 0) === 0)
      return `${where} names no actors and no groups: nobody could decide ${tools.join(", ")}`;
    const unknown = rule.groups?.find((group) => !(group in defined));
    if (unknown !== undefined)
      return `${where} names group '${unknown}', which neither the agent's permission.groups nor the worker's approverGroups defines`;
    const signed = checkSignedRule(rule, where, settings, defined);
    if (signed !== undefined) return signed;
  }
  return undefined;
}

/** The settings with the worker's groups added under the names the plan does not define itself. */
export function withWorkerGroups<T extends ApproverSettings>(
  settings: T,
  workerGroups: Record<string, string[]> | undefined,
): T {
  if (!workerGroups || settings.approvers === undefined) return settings;
  return { ...settings, groups: { ...workerGroups, ...settings.groups } };
}

/** A rule that requires signatures needs a declared key of one of its approvers, or nobody could decide. */
function checkSignedRule(
  rule: ApproverRule,
  where: string,
  settings: ApproverSettings,
  groups: Record<string, string[]>,
): string | undefined {
  if (rule.requireSignature === undefined) return undefined;
  if (typeof rule.requireSignature !== "boolean") return `${where}.requireSignature must be true or false`;
  if (!rule.requireSignature) return undefined;
  const set = {
    actors: rule.actors ?? [],
    groups: Object.fromEntries((rule.groups ?? []).map((g) => [g, groups[g] ?? []])),
  };
  if ((settings.approverKeys ?? []).some((key) => mayDecide(set, key.actor))) return undefined;
  return `${where} requires signatures, but permission.approverKeys has no key of its approvers: nobody could decide`;
}
