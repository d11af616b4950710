/** The response headers a retry delay can be read from (a fetch `Headers` fits). */
export interface RetryAfterHeaders {
  get(name: string): string | null;
}

/**
 * The delay a server asked for before retrying, in ms: `retry-after-ms` (fractional) wins over `retry-after` (seconds
 * or an HTTP date; a past date gives 0). Missing or unreadable headers give `undefined`, so callers use their backoff.
 */
export function parseRetryAfterMs(
  headers: RetryAfterHeaders | undefined,
  now: () => number = Date.now,
): number | undefined {
  if (!headers) return undefined;
  const millis = parseNonNegative(headers.get("retry-after-ms"));
  if (millis !== undefined) return millis;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  const seconds = parseNonNegative(value);
  if (seconds !== undefined) return seconds * 1000;
  // An HTTP date names its month; without this, Date.parse reads "-3" as the year -3.
  const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/** A finite, non-negative number written in decimal, or `undefined`. */
function parseNonNegative(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}
