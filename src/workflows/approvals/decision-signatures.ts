import type { SigningSettings } from "../../contract/approvers.js";
import { checkSignature } from "../../plan/signature-check.js";
import { optional } from "../admission/optional-field.js";

/** How many nonces of accepted signed decisions the session remembers (carried across continue-as-new). */
const REMEMBERED_NONCES = 1000;

/** What a signature check reads of a decision or an answer (unchecked: a signal's payload). */
interface SignedRequest {
  callId: string;
  actor?: string;
  reason?: string;
  signature?: unknown;
}

/**
 * The session's check of signed decisions and answers: each against its call's keys, with the nonces of those it
 * took, so a signature brought again is refused. The signed message names the session, so nonces are per session.
 */
export class DecisionSignatures {
  private readonly nonces: string[] = [];
  private readonly seen = new Set<string>();

  /**
   * @param sessionId the workflow id, which signed messages name.
   * @param carried the previous execution's nonces (its input: only strings are kept).
   */
  constructor(
    private readonly sessionId: string,
    carried?: unknown,
  ) {
    if (Array.isArray(carried)) for (const nonce of carried) if (typeof nonce === "string") this.use(nonce);
  }

  /** Why the request's signature is refused (a bad one always; none when required), or undefined. */
  problem(
    signing: SigningSettings | undefined,
    request: SignedRequest,
    decision: string,
  ): string | undefined {
    const { callId, actor, reason } = request;
    const fields = { sessionId: this.sessionId, callId, decision, ...optional("actor", actor) };
    const verdict = checkSignature(
      signing,
      { ...fields, ...optional("reason", reason) },
      request.signature,
      (n) => this.seen.has(n),
    );
    return "problem" in verdict ? verdict.problem : undefined;
  }

  /** The key id of a request that passed {@link problem}, its nonce now used; undefined when unsigned. */
  take(request: { signature?: { keyId: string; nonce: string } }): string | undefined {
    if (!request.signature) return undefined;
    this.use(request.signature.nonce);
    return request.signature.keyId;
  }

  /** The nonces to carry, oldest first; empty when no signed decision was taken. */
  carry(): string[] {
    return [...this.nonces];
  }

  private use(nonce: string): void {
    if (this.seen.has(nonce)) return;
    this.nonces.push(nonce);
    this.seen.add(nonce);
    if (this.nonces.length > REMEMBERED_NONCES) this.seen.delete(this.nonces.shift()!);
  }
}
