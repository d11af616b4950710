import type { UserAnswer } from "../kernel/permission/types.js";

/** The first element of every signed message: a signature made for anything else never verifies here. */
export const DECISION_MESSAGE_TAG = "lite-agent/decision/v1";

/** What a decision's signature covers. `decision` is `allow`, `deny`, or an answer's {@link answerDecision}. */
export interface DecisionFields {
  /** The session's workflow id (a subagent's own session for its calls). */
  sessionId: string;
  callId: string;
  decision: string;
  reason?: string;
  actor?: string;
  keyId: string;
  nonce: string;
}

/**
 * The bytes an approver signs: the UTF-8 JSON array of the tag and the fields in a fixed order, absent ones as
 * `null`. Signers (the client, the CLI) and the workflow's check build it here, and only here.
 */
export function decisionMessage(fields: DecisionFields): Uint8Array {
  const { sessionId, callId, decision, reason, actor, keyId, nonce } = fields;
  const parts = [
    DECISION_MESSAGE_TAG,
    sessionId,
    callId,
    decision,
    reason ?? null,
    actor ?? null,
    keyId,
    nonce,
  ];
  return new TextEncoder().encode(JSON.stringify(parts));
}

/** The `decision` field of an answer to a question: its text and selected options, in a fixed order. */
export function answerDecision(answer: UserAnswer): string {
  return `answer:${JSON.stringify([answer.text ?? null, answer.selected ?? null])}`;
}
