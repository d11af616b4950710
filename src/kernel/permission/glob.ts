import picomatch from "picomatch/posix.js";
import picomatchConstants from "picomatch/lib/constants.js";

// The worker shares the workflow bundle's modules between sessions and deep-freezes what each exports
// (docs/decisions/0014). picomatch's constants hold global expressions whose `lastIndex` its
// `replace` calls set while compiling a pattern: frozen, compiling would throw. The freeze stops at an object that
// is frozen already, so freezing the table itself (never changed) leaves its expressions as they are.
Object.freeze(picomatchConstants);

/**
 * Whole-string glob matching by picomatch's posix entry (no Node built-ins, so it runs in the workflow sandbox) with
 * `dot: true`: `*` and `?` stop at `/`, `**` spans segments; braces, classes and `!` negation work. Neither `*` nor
 * `**` matches `.` or `..`, so `src/**` never matches `src/../etc/passwd`. The empty string never matches.
 */

/** A compiled glob: true when the whole string matches. */
export type GlobMatcher = (value: string) => boolean;

/** A range larger than this is refused: the policy author surely meant something else. */
const MAX_RANGE = 4096;
/** picomatch's options for policy names and paths (`posix`: `[!a]` negates and POSIX classes work). */
const OPTIONS: picomatch.PicomatchOptions = { dot: true, posix: true, expandRange };
const CACHE_LIMIT = 1024;

// eslint-disable-next-line no-restricted-syntax -- a pure cache: a pattern compiles to the same matcher for any session.
const cache = new Map<string, GlobMatcher>();

/**
 * Compiles `pattern` once (cached) and returns its matcher.
 * @example compileGlob("mcp__*")("mcp__github__search") // true
 */
export function compileGlob(pattern: string): GlobMatcher {
  let matcher = cache.get(pattern);
  if (matcher === undefined) {
    matcher = buildMatcher(pattern);
    // Patterns come from policy configuration, so the cache stays small; the limit only guards misuse.
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pattern, matcher);
  }
  return matcher;
}

/** True when the whole of `value` matches `pattern`. */
export function globMatch(pattern: string, value: string): boolean {
  return compileGlob(pattern)(value);
}

/** The anchored RegExp of a glob without leading `!` negation. */
export function globToRegExp(pattern: string): RegExp {
  return picomatch.makeRe(pattern, OPTIONS);
}

function buildMatcher(pattern: string): GlobMatcher {
  const matches = picomatch(pattern, OPTIONS);
  return (value) => value !== "" && matches(value);
}

/**
 * The regex source of a brace range, `{1..3}`, `{01..10}` (zero-padded as written) or `{a..c}`: each value as an
 * alternative, so the range means its values, not a character class.
 */
function expandRange(from: string, to: string): string {
  const values = rangeValues(from, to);
  return `(?:${values.map(escapeRegExp).join("|")})`;
}

function rangeValues(from: string, to: string): string[] {
  const numeric = /^-?\d+$/;
  if (numeric.test(from) && numeric.test(to)) {
    const width = /^-?0\d/.test(from) || /^-?0\d/.test(to) ? Math.max(from.length, to.length) : 0;
    return steps(Number(from), Number(to)).map((n) => String(n).padStart(width, "0"));
  }
  if (from.length === 1 && to.length === 1)
    return steps(from.charCodeAt(0), to.charCodeAt(0)).map((code) => String.fromCharCode(code));
  return [`{${from}..${to}}`];
}

function steps(from: number, to: number): number[] {
  const count = Math.abs(to - from) + 1;
  if (count > MAX_RANGE)
    throw new Error(`the glob range {${from}..${to}} is too large (over ${MAX_RANGE} values)`);
  const step = to >= from ? 1 : -1;
  return Array.from({ length: count }, (_, index) => from + index * step);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}
