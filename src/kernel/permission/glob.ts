/**
 * Whole-string glob matching with picomatch-style semantics and `dot: true`: `*` and `?` stop at `/`, `**` as a
 * whole segment spans segments, `{a,b}` and `{1..3}` expand, `[abc]`, `[!a]`, `[^a]`, `[a-z]` and POSIX classes
 * match one character, `\` escapes, and a leading `!` negates. Written here because the kernel may not import
 * picomatch (determinism boundary).
 */

/** A compiled glob: true when the whole string matches. */
export type GlobMatcher = (value: string) => boolean;

// Neither `*` nor `**` may match a `.` or `..` segment, even with dot:true (picomatch does the same); this keeps
// `src/**` from matching `src/../etc/passwd`.
const NOT_DOT_SEGMENT = String.raw`(?!\.{1,2}(?:/|$))`;
const SEGMENT = `${NOT_DOT_SEGMENT}[^/]+`;
const MAX_EXPANSIONS = 4096;
const CACHE_LIMIT = 1024;

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  ascii: String.raw`\x00-\x7F`,
  blank: String.raw` \t`,
  cntrl: String.raw`\x00-\x1F\x7F`,
  digit: "0-9",
  graph: String.raw`\x21-\x7E`,
  lower: "a-z",
  print: String.raw`\x20-\x7E`,
  punct: String.raw`!-\/:-@\[-\x60{-~`,
  space: String.raw` \t\r\n\v\f`,
  upper: "A-Z",
  word: "A-Za-z0-9_",
  xdigit: "A-Fa-f0-9",
};

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

/** The anchored RegExp of a glob without leading `!` negation. Throws on an invalid class range. */
export function globToRegExp(pattern: string): RegExp {
  const alternatives = [...new Set(expandBraces(pattern, { count: 0 }).map(compilePattern))];
  return new RegExp(`^(?:${alternatives.join("|")})$`);
}

function buildMatcher(pattern: string): GlobMatcher {
  let negated = false;
  let body = pattern;
  // A leading `!` negates (each further `!` flips again); `!(` would be an extglob, which we treat literally.
  while (body.startsWith("!") && body[1] !== "(") {
    negated = !negated;
    body = body.slice(1);
  }
  const re = globToRegExp(body);
  // Like picomatch: the empty string never matches, and a name equal to the pattern always does.
  if (negated) return (value) => value !== "" && !re.test(value);
  return (value) => value !== "" && (value === pattern || re.test(value));
}

/** Expands the first alternation brace, recursively, so every result is a brace-free pattern. */
function expandBraces(pattern: string, budget: { count: number }): string[] {
  const brace = findBrace(pattern);
  if (brace === undefined) return [pattern];
  const prefix = pattern.slice(0, brace.open);
  const suffix = pattern.slice(brace.close + 1);
  const out: string[] = [];
  for (const alternative of brace.alternatives) {
    for (const expanded of expandBraces(prefix + alternative + suffix, budget)) {
      if (++budget.count > MAX_EXPANSIONS)
        throw new Error(`glob: brace expansion of "${pattern}" is too large`);
      out.push(expanded);
    }
  }
  return out;
}

interface Brace {
  open: number;
  close: number;
  alternatives: string[];
}

/** The first `{…}` that is an alternation or a range; braces without either stay literal. */
function findBrace(pattern: string): Brace | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "[") i = Math.max(i, classEnd(pattern, i));
    else if (c === "{") {
      const close = matchingBrace(pattern, i);
      if (close < 0) continue;
      const alternatives = braceAlternatives(pattern.slice(i + 1, close));
      if (alternatives !== undefined) return { open: i, close, alternatives };
    }
  }
  return undefined;
}

function matchingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "[") i = Math.max(i, classEnd(pattern, i));
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Splits a brace body on top-level commas, or expands a range; undefined when it is neither. */
function braceAlternatives(body: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") i++;
    else if (c === "[") i = Math.max(i, classEnd(body, i));
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (parts.length > 0) return [...parts, body.slice(start)];
  return braceRange(body);
}

/** `1..3`, `-2..2`, `01..10` (zero-padded) and `a..e` ranges. */
function braceRange(body: string): string[] | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  if (numeric) {
    const [, from = "", to = ""] = numeric;
    const width = /^-?0\d/.test(from) || /^-?0\d/.test(to) ? Math.max(from.length, to.length) : 0;
    return rangeOf(Number(from), Number(to)).map((n) =>
      n < 0 ? `-${String(-n).padStart(width - 1, "0")}` : String(n).padStart(width, "0"),
    );
  }
  const alpha = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
  if (!alpha) return undefined;
  return rangeOf(alpha[1]!.charCodeAt(0), alpha[2]!.charCodeAt(0)).map((code) => String.fromCharCode(code));
}

function rangeOf(from: number, to: number): number[] {
  const step = from <= to ? 1 : -1;
  if (Math.abs(to - from) >= MAX_EXPANSIONS) throw new Error(`glob: range ${from}..${to} is too large`);
  const out: number[] = [];
  for (let n = from; n !== to + step; n += step) out.push(n);
  return out;
}

/** The index of the `]` closing the class opened at `open`, or -1 when the `[` is literal. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === "!" || pattern[i] === "^") i++;
  // A `]` right after the opening (or its negation) is a member, not the end.
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "]") return i;
    else if (pattern.startsWith("[:", i)) {
      const end = pattern.indexOf(":]", i + 2);
      if (end > 0) i = end + 1;
    }
  }
  return -1;
}

/** Compiles one brace-free pattern to regex source. */
function compilePattern(pattern: string): string {
  const out: string[] = [];
  let wildcardLast = false;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    const classClose = c === "[" ? classEnd(pattern, i) : -1;
    wildcardLast = c === "*" || classClose > 0;
    if (c === "\\") {
      out.push(escapeRegExp(pattern[i + 1] ?? "\\"));
      i += 2;
    } else if (c === "*") {
      i = compileStars(pattern, i, out);
    } else if (classClose > 0) {
      out.push(compileClass(pattern.slice(i + 1, classClose)));
      i = classClose + 1;
    } else {
      out.push(c === "?" ? "[^/]" : escapeRegExp(c));
      i++;
    }
  }
  // Like picomatch, a pattern ending in a star or a class tolerates one trailing slash in the input.
  if (wildcardLast) out.push("/?");
  return out.join("");
}

/** Compiles a run of stars starting at `start`; returns the index after what it consumed. */
function compileStars(pattern: string, start: number, out: string[]): number {
  let end = start;
  while (pattern[end] === "*") end++;
  const segmentStart = start === 0 || pattern[start - 1] === "/";
  const segmentEnd = end === pattern.length || pattern[end] === "/";
  if (end - start === 2 && segmentStart && segmentEnd) return compileGlobstar(pattern, start, end, out);
  if (!segmentStart) out.push("[^/]*");
  // A star that is the whole segment needs at least one character (`a/*` does not match `a/`).
  else out.push(segmentEnd ? SEGMENT : `${NOT_DOT_SEGMENT}[^/]*`);
  return end;
}

/** `**` as a whole segment: any number of segments, including none. */
function compileGlobstar(pattern: string, start: number, end: number, out: string[]): number {
  if (pattern[end] === "/") {
    out.push(`(?:${SEGMENT}/)*`);
    return end + 1;
  }
  if (start === 0) {
    out.push(`${SEGMENT}(?:/${SEGMENT})*/?`);
    return end;
  }
  // A trailing `/**` also matches the parent itself (`a/**` matches `a`), so it absorbs the slash before it.
  out.pop();
  out.push(`(?:/(?:${SEGMENT}(?:/${SEGMENT})*/?)?)?`);
  return end;
}

/** Compiles the body of a `[…]` class. Negated classes never match `/`. */
function compileClass(body: string): string {
  const negated = body.startsWith("!") || body.startsWith("^");
  let members = "";
  let i = negated ? 1 : 0;
  while (i < body.length) {
    const posix = /^\[:([a-z]+):\]/.exec(body.slice(i));
    const posixClass = posix ? POSIX_CLASSES[posix[1]!] : undefined;
    if (posix && posixClass !== undefined) {
      members += posixClass;
      i += posix[0].length;
      continue;
    }
    const low = readClassChar(body, i);
    i = low.next;
    if (body[i] === "-" && i + 1 < body.length) {
      const high = readClassChar(body, i + 1);
      members += `${escapeClassChar(low.char)}-${escapeClassChar(high.char)}`;
      i = high.next;
    } else {
      members += escapeClassChar(low.char);
    }
  }
  return negated ? `[^/${members}]` : `[${members}]`;
}

function readClassChar(body: string, at: number): { char: string; next: number } {
  if (body[at] === "\\" && at + 1 < body.length) return { char: body[at + 1]!, next: at + 2 };
  return { char: body[at]!, next: at + 1 };
}

function escapeClassChar(c: string): string {
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}

function escapeRegExp(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}
