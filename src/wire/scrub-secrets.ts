/** What a scrubbed secret is replaced with. */
export const REDACTED = "[redacted]";

/** Configured secrets shorter than this are not scrubbed (they would mangle ordinary words). */
export const MIN_SECRET_LENGTH = 8;

/** `Bearer <token>` in a header echoed into an error text. */
const BEARER = /\bBearer\s+[A-Za-z0-9\-._~+/]+=*/gi;
/** API keys in the `sk-…` shape (OpenAI, Anthropic, many gateways). */
const SK_KEY = /\bsk-[A-Za-z0-9_-]{16,}/g;

/**
 * The secrets a worker knows and a scrubber over them: configured values, `Bearer <token>` and `sk-…` keys become
 * `[redacted]` wherever they appear. Values can be added later (a provider made on demand declares its key when used).
 */
export class SecretScrubber {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  constructor(secrets: Iterable<string | null | undefined> = []) {
    this.add(secrets);
  }

  /** Adds secret values (short and empty ones are ignored). */
  add(secrets: Iterable<string | null | undefined>): this {
    for (const secret of secrets) {
      const value = secret?.trim();
      if (value && value.length >= MIN_SECRET_LENGTH && !this.secrets.has(value)) {
        this.secrets.add(value);
        this.pattern = undefined;
      }
    }
    return this;
  }

  /** The text with every known secret, bearer token and `sk-` key replaced. */
  scrub(text: string): string {
    let result = text;
    const pattern = this.secretPattern();
    if (pattern) result = result.replace(pattern, REDACTED);
    return result.replace(BEARER, `Bearer ${REDACTED}`).replace(SK_KEY, REDACTED);
  }

  /** A copy of a JSON-like value with every string scrubbed (objects and arrays deeply; other values as they are). */
  scrubValue<T>(value: T): T {
    return scrubDeep(value, (text) => this.scrub(text), new WeakMap()) as T;
  }

  /**
   * Scrubs an error in place, so it keeps its class (Temporal tells failures apart by it): the message, the
   * stack, an ApplicationFailure's `details`, and the same for every `cause` down the chain. Returns the error.
   */
  scrubError<E>(error: E): E {
    const seen = new Set<unknown>();
    for (let current: unknown = error; current instanceof Error && !seen.has(current);) {
      seen.add(current);
      const target = current as Error & { details?: unknown; failure?: unknown };
      // A failure decoded from the server carries its original proto, which the SDK would send as it is.
      if (target.failure !== undefined) trySet(target, "failure", undefined);
      trySet(target, "message", this.scrub(target.message));
      if (typeof target.stack === "string") trySet(target, "stack", this.scrub(target.stack));
      if (Array.isArray(target.details)) trySet(target, "details", this.scrubValue(target.details));
      current = target.cause;
    }
    return error;
  }

  private secretPattern(): RegExp | undefined {
    if (this.secrets.size === 0) return undefined;
    // Longest first, so a secret containing another is replaced whole.
    const sorted = [...this.secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern ??= new RegExp(sorted.join("|"), "g");
    return this.pattern;
  }
}

// eslint-disable-next-line no-restricted-syntax -- keyed by the owner object: nothing passes between sessions.
const declared = new WeakMap<object, string[]>();

/**
 * Records the secrets an object (a model provider) was configured with, so a worker running it scrubs them
 * from what it records. Returns the object.
 */
export function declareSecrets<T extends object>(owner: T, secrets: Iterable<string | null | undefined>): T {
  const values = [...secrets].filter((value): value is string => typeof value === "string" && value !== "");
  declared.set(owner, [...(declared.get(owner) ?? []), ...values]);
  return owner;
}

/** The secrets an object declared with {@link declareSecrets}. */
export function declaredSecrets(owner: unknown): readonly string[] {
  return typeof owner === "object" && owner !== null ? (declared.get(owner) ?? []) : [];
}

function scrubDeep(value: unknown, scrub: (text: string) => string, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === "string") return scrub(value);
  if (typeof value !== "object" || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(scrubDeep(item, scrub, seen));
    return copy;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = scrubDeep(item, scrub, seen);
  return copy;
}

function trySet(target: object, key: string, value: unknown): void {
  try {
    (target as Record<string, unknown>)[key] = value;
  } catch {
    // A frozen error keeps its text; nothing better can be done here.
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
