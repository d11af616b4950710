/** What a scrubbed secret is replaced with. */
export const REDACTED = "[redacted]";

/** Configured secrets shorter than this are not scrubbed (they would mangle ordinary words). */
export const MIN_SECRET_LENGTH = 8;

/** `Bearer <token>` in a header echoed into an error text. */
const BEARER = /\bBearer\s+[A-Za-z0-9\-._~+/]+=*/gi;
/** API keys in the `sk-…` shape (OpenAI, Anthropic, many gateways). */
const SK_KEY = /\bsk-[A-Za-z0-9_-]{16,}/g;

/** How a {@link SecretScrubber} matches besides the configured values. */
export interface SecretScrubberOptions {
  /** Whether `Bearer <token>` and `sk-…` keys are replaced too. Default true. */
  shapes?: boolean;
}

/** A text that may grow at its end holds back this much of a run without whitespace, at most. */
const MAX_HELD_TOKEN = 256;

/**
 * The secrets a worker knows and a scrubber over them: configured values, `Bearer <token>` and `sk-…` keys become
 * `[redacted]` wherever they appear. Values can be added later (a provider made on demand declares its key when used).
 */
export class SecretScrubber {
  // Shared with the scrubbers byValue() makes, and only ever grows: its size tells whether the pattern is current.
  private secrets = new Set<string>();
  private pattern: RegExp | undefined;
  private patternSize = 0;
  private readonly shapes: boolean;

  constructor(secrets: Iterable<string | null | undefined> = [], options: SecretScrubberOptions = {}) {
    this.shapes = options.shapes ?? true;
    this.add(secrets);
  }

  /**
   * A scrubber over the same values (added ones included) that leaves the shapes alone: for model output and tool
   * inputs, where "a Bearer token" is prose. Only values are matched there.
   */
  byValue(): SecretScrubber {
    const view = new SecretScrubber([], { shapes: false });
    view.secrets = this.secrets;
    return view;
  }

  /** Adds secret values (short and empty ones are ignored). */
  add(secrets: Iterable<string | null | undefined>): this {
    for (const secret of secrets) {
      const value = secret?.trim();
      if (value && value.length >= MIN_SECRET_LENGTH) this.secrets.add(value);
    }
    return this;
  }

  /** The text with every known secret (and, unless made `byValue`, bearer token and `sk-` key) replaced. */
  scrub(text: string): string {
    let result = text;
    const pattern = this.secretPattern();
    if (pattern) result = result.replace(pattern, REDACTED);
    if (!this.shapes) return result;
    return result.replace(BEARER, `Bearer ${REDACTED}`).replace(SK_KEY, REDACTED);
  }

  /**
   * How much of a text that may still grow at its end can be scrubbed now: the rest may be the start of a secret
   * (or of a token a shape would match). No match of the start crosses the length returned.
   */
  safeLength(text: string): number {
    let cut = text.length - Math.max(this.heldForValues(text), this.heldForShapes(text));
    const patterns = [this.secretPattern(), ...(this.shapes ? [BEARER, SK_KEY] : [])];
    for (const pattern of patterns) if (pattern) cut = startOfMatchAcross(text, cut, pattern);
    return cut;
  }

  /**
   * A copy of a JSON-like value with every string scrubbed (objects and arrays deeply; other values as they are);
   * the value itself when there is nothing to match.
   */
  scrubValue<T>(value: T): T {
    // Nothing to match (a byValue scrubber before any secret is known): every activity result skips the copy.
    if (!this.shapes && this.secrets.size === 0) return value;
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

  /** The length of the longest end of the text that a secret starts with. */
  private heldForValues(text: string): number {
    let held = 0;
    for (const secret of this.secrets)
      for (let length = Math.min(secret.length, text.length); length > held; length--)
        if (text.endsWith(secret.slice(0, length))) held = length;
    return held;
  }

  /** The text's last run without whitespace (with a `Bearer ` before it), which a shape may still match. */
  private heldForShapes(text: string): number {
    if (!this.shapes) return 0;
    const tail = /(?:\bBearer\s+)?\S*$/i.exec(text)?.[0] ?? "";
    return Math.min(tail.length, MAX_HELD_TOKEN);
  }

  private secretPattern(): RegExp | undefined {
    if (this.secrets.size === 0) return undefined;
    if (this.pattern && this.patternSize === this.secrets.size) return this.pattern;
    // Longest first, so a secret containing another is replaced whole.
    const sorted = [...this.secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = new RegExp(sorted.join("|"), "g");
    this.patternSize = this.secrets.size;
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

/** The cut moved back to the start of a match that would cross it, if any. */
function startOfMatchAcross(text: string, cut: number, pattern: RegExp): number {
  for (const match of text.matchAll(pattern)) {
    if (match.index >= cut) break;
    if (match.index + match[0].length > cut) return match.index;
  }
  return cut;
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
