import { describe, expect, it } from "vitest";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import {
  RETRYABLE_STATUSES,
  isRetryableProviderError,
} from "../../../src/kernel/middleware/is-retryable-provider-error.js";

describe("isRetryableProviderError", () => {
  it("accepts only ProviderErrors with no status or a transient one", () => {
    expect(isRetryableProviderError(new ProviderError("net"))).toBe(true);
    expect(isRetryableProviderError(new ProviderError("busy", 503))).toBe(true);
    expect(isRetryableProviderError(new ProviderError("bad", 400))).toBe(false);
    expect(isRetryableProviderError(new Error("plain"))).toBe(false);
    expect(isRetryableProviderError(undefined)).toBe(false);
  });

  it("lists exactly the seed's retryable statuses", () => {
    expect([...RETRYABLE_STATUSES].sort((a, b) => a - b)).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
  });
});
