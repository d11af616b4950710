import { describe, expect, it } from "vitest";
import { bytesToHex } from "@noble/hashes/utils";
import { answerDecision, decisionMessage } from "../../../src/plan/decision-message.js";
import { checkSignature, checkApproverKeys } from "../../../src/plan/signature-check.js";
import { checkApproverSettings, signingFor } from "../../../src/plan/approver-rules.js";
import { generateApproverKey, signDecision, signerFromKeyText } from "../../../src/client/decision-signer.js";
import { ApprovalBoard } from "../../../src/workflows/approvals/approval-board.js";

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

describe("the approval board's signature check", () => {
  const signer = signerFromKeyText(JSON.stringify(alice));
  const wait = (callId: string) => ({
    callId,
    runId: "r",
    tool: "refund_order",
    input: {},
    requestedAt: 0,
    expiresAt: 1,
    signing: { keys, required: true },
  });

  it("refuses a nonce it took before, also after continue-as-new; answers are checked alike", async () => {
    const board = new ApprovalBoard(undefined, "s1");
    board.addApproval(wait("c1"));
    board.addApproval(wait("c2"));
    const first = await signDecision(signer, {
      sessionId: "s1",
      callId: "c1",
      decision: "allow",
      actor: "alice",
    });
    const request = { callId: "c1", decision: "allow" as const, actor: "alice", signature: first };
    expect(board.checkDecision(request)).toBeUndefined();
    expect(board.checkDecision({ ...request, actor: undefined })).toMatch(
      /must name its actor|not the decision/,
    );
    board.decide(request, 5, "update");
    expect(board.recentDecisions().at(-1)).toMatchObject({ signed: true, keyId: "alice-1" });
    // A valid signature for c2 that reuses c1's nonce.
    const reused = await signDecision(signer, {
      sessionId: "s1",
      callId: "c2",
      decision: "allow",
      actor: "alice",
    });
    const again = { ...reused, nonce: first.nonce };
    const message = decisionMessage({
      sessionId: "s1",
      callId: "c2",
      decision: "allow",
      actor: "alice",
      keyId: "alice-1",
      nonce: first.nonce,
    });
    again.signature = bytesToHex((await signer.sign(message)) as Uint8Array);
    const c2 = { callId: "c2", decision: "allow" as const, actor: "alice", signature: again };
    expect(board.checkDecision(c2)).toBe(`nonce '${first.nonce}' was already used`);
    const next = new ApprovalBoard(board.carry(), "s1");
    expect(next.checkDecision(c2)).toBe(`nonce '${first.nonce}' was already used`);
    expect(new ApprovalBoard(board.carry(), "s2").checkDecision({ ...c2, signature: reused })).toMatch(
      /does not verify/,
    );

    board.addQuestion({
      callId: "q1",
      runId: "r",
      question: "?",
      requestedAt: 0,
      expiresAt: 1,
      signing: { keys, required: true },
    });
    expect(board.checkAnswer({ callId: "q1", text: "yes", actor: "alice" })).toMatch(
      /unsigned decision is refused/,
    );
    const answer = await signDecision(signer, {
      sessionId: "s1",
      callId: "q1",
      decision: 'answer:["yes",null]',
      actor: "alice",
    });
    expect(
      board.checkAnswer({ callId: "q1", text: "yes", actor: "alice", signature: answer }),
    ).toBeUndefined();
    expect(board.checkAnswer({ callId: "q1", text: "no", actor: "alice", signature: answer })).toMatch(
      /does not verify/,
    );
  });
});
