import { describe, expect, it } from "vitest";
import { answerDecision, decisionMessage } from "../../../src/plan/decision-message.js";
import { checkSignature, checkApproverKeys } from "../../../src/plan/signature-check.js";
import { checkApproverSettings, signingFor } from "../../../src/plan/approver-rules.js";
import { generateApproverKey, signDecision, signerFromKeyText } from "../../../src/client/decision-signer.js";

const alice = generateApproverKey("alice-1", "alice");
const mallory = generateApproverKey("mallory-1", "mallory");
const keys = [
  { id: alice.keyId, actor: "alice", publicKey: alice.publicKey },
  { id: mallory.keyId, actor: "mallory", publicKey: mallory.publicKey },
];
const fields = { sessionId: "s1", callId: "c1", decision: "allow", reason: "ok", actor: "alice" };
const never = () => false;

describe("the canonical decision message", () => {
  it("is the tagged JSON array of the fields in a fixed order, absent ones null", () => {
    const text = new TextDecoder().decode(
      decisionMessage({ sessionId: "s", callId: "c", decision: "deny", keyId: "k", nonce: "n" }),
    );
    expect(text).toBe('["lite-agent/decision/v1","s","c","deny",null,null,"k","n"]');
    expect(answerDecision({ text: "yes" })).toBe('answer:["yes",null]');
    expect(answerDecision({ selected: ["a", "b"] })).toBe('answer:[null,["a","b"]]');
  });
});

describe("checkSignature", () => {
  const signing = { keys, required: true };
  it("accepts a signature of the decision's actor and names its key", async () => {
    const signature = await signDecision(signerFromKeyText(JSON.stringify(alice)), fields);
    expect(checkSignature(signing, fields, signature, never)).toEqual({ keyId: "alice-1" });
  });

  it.each([
    ["sessionId", "s2"],
    ["callId", "c2"],
    ["decision", "deny"],
    ["reason", "changed"],
  ] as const)("refuses a signature when %s was changed", async (field, value) => {
    const signature = await signDecision(signerFromKeyText(JSON.stringify(alice)), fields);
    const verdict = checkSignature(signing, { ...fields, [field]: value }, signature, never);
    expect(verdict).toEqual({ problem: expect.stringContaining("does not verify with key 'alice-1'") });
  });

  it("refuses an unsigned decision when required, accepts it as unsigned otherwise", () => {
    expect(checkSignature(signing, fields, undefined, never)).toEqual({
      problem: expect.stringContaining("an unsigned decision is refused"),
    });
    expect(checkSignature({ keys }, fields, undefined, never)).toEqual({});
    expect(checkSignature(undefined, fields, undefined, never)).toEqual({});
  });

  it("refuses an unknown key, another actor's key, a used nonce, a changed key id and garbage", async () => {
    const signature = await signDecision(signerFromKeyText(JSON.stringify(alice)), fields);
    expect(checkSignature(signing, fields, { ...signature, keyId: "nope" }, never)).toEqual({
      problem: expect.stringContaining("unknown key id 'nope'"),
    });
    const forged = await signDecision(signerFromKeyText(JSON.stringify(mallory)), fields);
    expect(checkSignature(signing, fields, forged, never)).toEqual({
      problem: "key 'mallory-1' is mallory's, not 'alice's",
    });
    expect(checkSignature(signing, fields, signature, () => true)).toEqual({
      problem: `nonce '${signature.nonce}' was already used`,
    });
    expect(checkSignature(signing, fields, { ...signature, nonce: "other" }, never)).toMatchObject({
      problem: expect.stringContaining("does not verify"),
    });
    expect(checkSignature(signing, fields, { ...signature, signature: "zz" }, never)).toMatchObject({
      problem: expect.stringContaining("does not verify"),
    });
    expect(checkSignature(signing, fields, { keyId: 1 }, never)).toMatchObject({
      problem: expect.stringContaining("'signature' must be"),
    });
    expect(checkSignature(undefined, fields, signature, never)).toMatchObject({
      problem: expect.stringContaining("unknown key id"),
    });
  });
});

describe("approver keys in the settings", () => {
  const rule = { tools: "refund_*", actors: ["alice"], requireSignature: true };
  it("signingFor lists the keys and whether a matching rule requires a signature", () => {
    expect(signingFor({ approvers: [rule], approverKeys: keys }, "refund_x")).toEqual({
      keys,
      required: true,
    });
    expect(signingFor({ approvers: [rule], approverKeys: keys }, "other")).toEqual({ keys });
    expect(signingFor({ approvers: [rule] }, "other")).toBeUndefined();
  });

  it("checks keys and that a rule requiring signatures has a key of its approvers", () => {
    expect(checkApproverSettings({ approvers: [rule], approverKeys: keys })).toBeUndefined();
    expect(checkApproverSettings({ approvers: [rule], approverKeys: [keys[1]!] })).toMatch(
      /requires signatures, but permission.approverKeys has no key of its approvers/,
    );
    expect(checkApproverKeys([{ id: "k", actor: "a", publicKey: "abc" }])).toMatch(/64 hex characters/);
    expect(checkApproverKeys([keys[0], keys[0]])).toMatch(/declared twice/);
  });
});
