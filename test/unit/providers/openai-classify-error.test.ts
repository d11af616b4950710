import { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { describe, expect, it } from "vitest";
import { AbortError, AgentError, ProviderError } from "../../../src/kernel/vocabulary/errors.js";
import { classifyProviderError } from "../../../src/providers/openai-provider.js";

describe("classifyProviderError", () => {
  it.each([408, 409, 425, 429, 500, 501, 502, 503, 504, 529, 599])("retries status %i", (status) => {
    expect(classifyProviderError(new ProviderError("failed", status))).toEqual({ retryable: true });
  });

  it.each([400, 401, 403, 404, 413, 422])("does not retry status %i", (status) => {
    expect(classifyProviderError(new ProviderError("failed", status))).toEqual({ retryable: false });
  });

  it("retries a ProviderError without status (a network failure)", () => {
    expect(classifyProviderError(new ProviderError("connection error: terminated"))).toEqual({
      retryable: true,
    });
  });

  it("passes on the provider's retry-after", () => {
    const error = new ProviderError("slow down", 429, { retryAfterMs: 2500 });

    expect(classifyProviderError(error)).toEqual({ retryable: true, retryAfterMs: 2500 });
  });

  it("does not retry aborts, other agent errors or plain errors", () => {
    expect(classifyProviderError(new AbortError())).toEqual({ retryable: false });
    expect(classifyProviderError(new AgentError("bug"))).toEqual({ retryable: false });
    expect(classifyProviderError(new TypeError("undefined is not a function"))).toEqual({ retryable: false });
    expect(classifyProviderError("a string")).toEqual({ retryable: false });
  });

  it("classifies raw openai client errors after mapping them", () => {
    const rateLimited = APIError.generate(
      429,
      { error: { message: "Rate limit" } },
      undefined,
      new Headers({ "retry-after": "3" }),
    );
    const badRequest = APIError.generate(400, { error: { message: "bad" } }, undefined, new Headers());

    expect(classifyProviderError(rateLimited)).toEqual({ retryable: true, retryAfterMs: 3000 });
    expect(classifyProviderError(badRequest)).toEqual({ retryable: false });
    expect(classifyProviderError(new APIConnectionError({ message: "Connection error." }))).toEqual({
      retryable: true,
    });
    expect(classifyProviderError(new APIUserAbortError())).toEqual({ retryable: false });
  });

  it("recognises a ProviderError from another copy of the errors module", () => {
    const foreign = Object.assign(new AgentError("busy"), { status: 503, retryAfterMs: undefined });
    Object.defineProperty(foreign, "name", { value: "ProviderError" });

    expect(classifyProviderError(foreign)).toEqual({ retryable: true });
  });
});
