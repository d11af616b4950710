import { dequal as deepEqual } from "dequal";
import { globMatch } from "./glob.js";

/**
 * One test on one field of a tool call's input: `regex` (unanchored search), `glob` (whole string), `equals`/`in`
 * (structural), `startsWith`, `contains` (substring or array member). `not` fails closed: it does not match when the
 * inner test cannot apply to the field's type (`{not: {startsWith: "rm"}}` does not match a number).
 */
export type Condition =
  | { regex: string | RegExp; flags?: string }
  | { glob: string }
  | { equals: unknown }
  | { in: readonly unknown[] }
  | { startsWith: string }
  | { contains: unknown }
  | { not: Condition };

/** Dot-paths into `call.input` (`"command"`, `"args.path"`, `"paths.0"`) mapped to conditions; all must hold. */
export type MatchSpec = Readonly<Record<string, Condition>>;

// eslint-disable-next-line no-restricted-syntax -- a pure cache of stateless (no g, no y) expressions.
const regexCache = new Map<string, RegExp>();
const REGEX_CACHE_LIMIT = 1024;

/**
 * The value at a dot-path, or undefined when any step is missing. Only own properties count, so a path cannot
 * reach `constructor` or `__proto__` through the prototype chain.
 */
export function getPath(input: unknown, path: string): unknown {
  let value = input;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** True when `value` satisfies `condition`. A missing (undefined) field matches no condition, `not` included. */
export function matchCondition(value: unknown, condition: Condition): boolean {
  if (value === undefined) return false;
  if ("not" in condition) return applies(value, condition.not) && !matchCondition(value, condition.not);
  if ("equals" in condition) return deepEqual(value, condition.equals);
  if ("in" in condition)
    return Array.isArray(condition.in) && condition.in.some((item) => deepEqual(value, item));
  if ("contains" in condition) return containsMatch(value, condition.contains);
  if (typeof value !== "string") return false;
  if ("regex" in condition) return toRegExp(condition.regex, condition.flags).test(value);
  if ("glob" in condition) return globMatch(condition.glob, value);
  if ("startsWith" in condition) return value.startsWith(condition.startsWith);
  return false;
}

/** True when every entry of `spec` holds for `input`. An empty spec matches everything. */
export function matchSpec(spec: MatchSpec, input: unknown): boolean {
  return Object.entries(spec).every(([path, condition]) => matchCondition(getPath(input, path), condition));
}

/** Whether `condition` can be evaluated against a value of this type (the guard that makes `not` fail closed). */
function applies(value: unknown, condition: Condition): boolean {
  if (value === undefined) return false;
  if ("not" in condition) return applies(value, condition.not);
  if ("equals" in condition || "in" in condition) return true;
  if ("contains" in condition)
    return Array.isArray(value) || (typeof value === "string" && typeof condition.contains === "string");
  return typeof value === "string";
}

function containsMatch(value: unknown, needle: unknown): boolean {
  if (Array.isArray(value)) return value.some((item) => deepEqual(item, needle));
  return typeof value === "string" && typeof needle === "string" && value.includes(needle);
}

/** Compiles (and caches) a regex condition. `g` and `y` are dropped: they would make `test` stateful. */
function toRegExp(source: string | RegExp, flags?: string): RegExp {
  const pattern = typeof source === "string" ? source : source.source;
  const allFlags = (flags ?? (typeof source === "string" ? "" : source.flags)).replace(/[gy]/g, "");
  const key = `${allFlags}/${pattern}`;
  let re = regexCache.get(key);
  if (re === undefined) {
    re = new RegExp(pattern, allFlags);
    if (regexCache.size >= REGEX_CACHE_LIMIT) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}
