import { ApplicationFailure } from "@temporalio/common";
import { expect, it } from "vitest";
import {
  REDACTED,
  SecretScrubber,
  declareSecrets,
  declaredSecrets,
} from "../../../src/wire/scrub-secrets.js";
import { ProviderError } from "../../../src/kernel/vocabulary/errors.js";

it("replaces configured secrets, bearer tokens and sk- keys", () => {
  const scrubber = new SecretScrubber(["my-own-secret-42", undefined, ""]);
  expect(scrubber.scrub("key my-own-secret-42 twice my-own-secret-42")).toBe(
    `key ${REDACTED} twice ${REDACTED}`,
  );
  expect(scrubber.scrub("Authorization: Bearer abc.DEF-123_x/y+z==")).toBe(
    `Authorization: Bearer ${REDACTED}`,
  );
  expect(scrubber.scrub("Incorrect API key provided: sk-proj-AbCdEf0123456789xyz.")).toBe(
    `Incorrect API key provided: ${REDACTED}.`,
  );
  expect(scrubber.scrub("a task-0123456789abcdefghij and sk-short stay")).toBe(
    "a task-0123456789abcdefghij and sk-short stay",
  );
});

it("ignores short configured values, which would mangle ordinary words", () => {
  const scrubber = new SecretScrubber(["test", "unused"]);
  expect(scrubber.scrub("this test is unused")).toBe("this test is unused");
});

it("replaces the longest secret whole when one contains another", () => {
  const scrubber = new SecretScrubber(["abcdefgh", "abcdefgh-and-more"]);
  expect(scrubber.scrub("x abcdefgh-and-more y abcdefgh")).toBe(`x ${REDACTED} y ${REDACTED}`);
});

it("secrets added later are scrubbed too; regex characters in a secret are literal", () => {
  const scrubber = new SecretScrubber();
  expect(scrubber.scrub("a+b*c?d(e)f")).toBe("a+b*c?d(e)f");
  scrubber.add(["a+b*c?d(e)f"]);
  expect(scrubber.scrub("value a+b*c?d(e)f.")).toBe(`value ${REDACTED}.`);
});

it("scrubs JSON-like values deeply, leaving other values alone", () => {
  const scrubber = new SecretScrubber(["0123456789secret"]);
  const value = { a: ["0123456789secret", 1, null], b: { c: "Bearer tok" }, d: true };
  expect(scrubber.scrubValue(value)).toEqual({
    a: [REDACTED, 1, null],
    b: { c: `Bearer ${REDACTED}` },
    d: true,
  });
  expect(value.a[0]).toBe("0123456789secret");
});

it("scrubs an error in place down its cause chain, keeping its class", () => {
  const scrubber = new SecretScrubber(["0123456789secret"]);
  const root = new Error("socket said 0123456789secret");
  const provider = new ProviderError("bad key 0123456789secret", 401, { cause: root });
  const failure = ApplicationFailure.create({
    message: "bad key 0123456789secret (status 401)",
    details: [{ echoed: "0123456789secret" }],
    cause: provider,
  });
  expect(scrubber.scrubError(failure)).toBe(failure);
  expect(failure).toBeInstanceOf(ApplicationFailure);
  expect(failure.message).toBe(`bad key ${REDACTED} (status 401)`);
  expect(failure.details).toEqual([{ echoed: REDACTED }]);
  expect(failure.stack).not.toContain("0123456789secret");
  expect(provider).toBeInstanceOf(ProviderError);
  expect(provider.message).toBe(`bad key ${REDACTED}`);
  expect(provider.stack).not.toContain("0123456789secret");
  expect(root.message).toBe(`socket said ${REDACTED}`);
});

it("providers declare the secrets they were configured with", () => {
  const provider = declareSecrets({ id: "p" }, ["key-one-12345", undefined]);
  declareSecrets(provider, ["key-two-12345"]);
  expect(declaredSecrets(provider)).toEqual(["key-one-12345", "key-two-12345"]);
  expect(declaredSecrets({})).toEqual([]);
  expect(declaredSecrets(undefined)).toEqual([]);
});

it("a byValue scrubber matches only values, added ones included", () => {
  const scrubber = new SecretScrubber(["first-secret-123"]);
  const byValue = scrubber.byValue();
  scrubber.add(["later-secret-456"]);
  expect(byValue.scrub("use a Bearer token, not first-secret-123 or later-secret-456")).toBe(
    `use a Bearer token, not ${REDACTED} or ${REDACTED}`,
  );
  expect(scrubber.scrub("use a Bearer token")).toBe(`use a Bearer ${REDACTED}`);
});

it("safeLength holds back what may still become a secret or a shape", () => {
  const byValue = new SecretScrubber(["abcd-secret-1234"]).byValue();
  expect(byValue.safeLength("the key is abcd-sec")).toBe("the key is ".length);
  expect(byValue.safeLength("the key is abcd-secret-1234")).toBe("the key is ".length);
  expect(byValue.safeLength("the key is abcd-secret-1234 ok")).toBe("the key is abcd-secret-1234 ok".length);
  expect(byValue.safeLength("nothing here a")).toBe("nothing here ".length);
  const all = new SecretScrubber();
  expect(all.safeLength("send Bearer ")).toBe("send ".length);
  expect(all.safeLength("key sk-abc")).toBe("key ".length);
  expect(all.safeLength("done. ")).toBe("done. ".length);
});

it("safeLength never cuts through a secret with a space in it", () => {
  const byValue = new SecretScrubber(["Token abcdef-12345"]).byValue();
  const text = "header Token abcdef-12345 and more";
  const cut = byValue.safeLength(text);
  expect(cut).toBe(text.length);
  expect(byValue.safeLength("header Token abcdef-12345")).toBe("header ".length);
});
