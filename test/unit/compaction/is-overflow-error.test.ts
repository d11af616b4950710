import { describe, expect, it } from "vitest";
import { isOverflowError } from "../../../src/kernel/compaction/is-overflow-error.js";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";

describe("isOverflowError", () => {
  it("recognises a ProviderError with status 413", () => {
    expect(isOverflowError(new ProviderError("request entity too large", 413))).toBe(true);
  });

  it.each([
    "prompt too long: 250000 tokens > 200000 maximum",
    "This model's maximum context length is 128000 tokens",
    "Too many tokens in request",
    "error code: context_length_exceeded",
    "prompt_too_long",
  ])("recognises the message %s", (message) => {
    expect(isOverflowError(new ProviderError(message, 400))).toBe(true);
  });

  it("follows cause links to a wrapped overflow", () => {
    const wrapped = new Error("activity failed", { cause: new ProviderError("payload", 413) });
    expect(isOverflowError(wrapped)).toBe(true);
  });

  it("rejects other errors and non-errors", () => {
    expect(isOverflowError(new ProviderError("rate limited", 429))).toBe(false);
    expect(isOverflowError(new Error("socket hang up"))).toBe(false);
    expect(isOverflowError("prompt too long")).toBe(false);
    expect(isOverflowError(undefined)).toBe(false);
  });
});
