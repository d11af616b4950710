/** Masks secrets in a JSON value before it leaves the gate in an event. Must return a new value. */
export type Redactor = (value: unknown) => unknown;

const MASK = "[redacted]";

// Each pattern masks a substring, so a secret embedded in a longer command is still caught. Best effort only:
// inject a custom Redactor for stricter coverage (AWS key ids, GitHub tokens, hex secrets...).
const BEARER = /\b(bearer\s+)[\w\-.~+/]+=*/gi;
const OPENAI_KEY = /\bsk-[\w-]{16,}/g;
const JWT = /\beyJ[\w-]{5,}\.[\w-]{5,}(?:\.[\w-]*)?/g;
const EMAIL = /[\w.+-]{1,64}@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/gi;
// `api_key=…`, `GITHUB_TOKEN: …`, `"password": "…"`, `--secret=…`: the key name is kept, the value masked.
const KEY_VALUE =
  /\b([\w-]*(?:api[_-]?key|token|secret|passw(?:or)?d)[\w-]*["']?\s*[:=]\s*["']?)([^\s"'&,;]+)/gi;
// Object keys whose string values are masked whole, e.g. `{ password: "hunter2" }`.
const SECRET_KEY = /api[_-]?key|token|secret|passw(?:or)?d|authorization/i;

/** Masks the secrets inside one string. */
export function redactString(text: string): string {
  return text
    .replace(BEARER, `$1${MASK}`)
    .replace(JWT, MASK)
    .replace(OPENAI_KEY, MASK)
    .replace(KEY_VALUE, `$1${MASK}`)
    .replace(EMAIL, MASK);
}

/**
 * Best-effort masking of bearer tokens, `sk-…` keys, JWTs, emails and `api_key/token/secret/password=…` in every
 * string of a JSON value, plus string values of secret-named keys. Returns a new value; non-plain objects are
 * returned as they are and cycles become `"[circular]"`.
 */
export const defaultRedactor: Redactor = (value) => walk(value, new Set());

function walk(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value === "string") return redactString(value);
  if (value === null || typeof value !== "object") return value;
  if (ancestors.has(value)) return "[circular]";
  if (!Array.isArray(value) && !isPlainObject(value)) return value;
  ancestors.add(value);
  const out = Array.isArray(value)
    ? value.map((item) => walk(item, ancestors))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walkEntry(key, item, ancestors)]));
  ancestors.delete(value);
  return out;
}

function walkEntry(key: string, item: unknown, ancestors: Set<object>): unknown {
  return typeof item === "string" && item !== "" && SECRET_KEY.test(key) ? MASK : walk(item, ancestors);
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
