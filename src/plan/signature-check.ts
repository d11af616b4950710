import { ed25519 } from "@noble/curves/ed25519";
import { hexToBytes } from "@noble/hashes/utils";
import type { ApproverKey, SigningSettings } from "../contract/approvers.js";
import type { DecisionSignature } from "../contract/requests.js";
import { decisionMessage, type DecisionFields } from "./decision-message.js";

/** A decision's fields as the session received them, before the signature's own (key id, nonce). */
export type SignedFields = Omit<DecisionFields, "keyId" | "nonce">;

/** What {@link checkSignature} says: why the decision is refused, or which key signed it (none: unsigned). */
export type SignatureVerdict = { problem: string } | { keyId?: string };

/**
 * Checks a decision's signature against the call's signing settings: a signature is needed when they require
 * one; a given one must name a declared key of the decision's actor, bring an unused nonce, and verify.
 */
export function checkSignature(
  signing: SigningSettings | undefined,
  fields: SignedFields,
  signature: unknown,
  nonceUsed: (nonce: string) => boolean,
): SignatureVerdict {
  if (signature === undefined) {
    return signing?.required
      ? {
          problem: `an unsigned decision is refused: call '${fields.callId}' needs one signed with an approver's key`,
        }
      : {};
  }
  if (!isSignature(signature))
    return { problem: "'signature' must be { keyId, nonce, signature }, non-empty strings" };
  const key = (signing?.keys ?? []).find((candidate) => candidate.id === signature.keyId);
  if (!key) return { problem: `unknown key id '${signature.keyId}' (not in the agent's approverKeys)` };
  if (key.actor !== fields.actor)
    return {
      problem: `key '${key.id}' is ${key.actor}'s, not ${fields.actor ? `'${fields.actor}'s` : "the decision's (no actor)"}`,
    };
  if (nonceUsed(signature.nonce)) return { problem: `nonce '${signature.nonce}' was already used` };
  const message = decisionMessage({ ...fields, keyId: key.id, nonce: signature.nonce });
  if (!verifies(signature.signature, message, key.publicKey))
    return {
      problem: `the signature does not verify with key '${key.id}' (changed, or made for another decision)`,
    };
  return { keyId: key.id };
}

/** Whether `signature` (hex) is `publicKey`'s (hex) over `message`; malformed hex never verifies. */
export function verifies(signature: string, message: Uint8Array, publicKey: string): boolean {
  try {
    return ed25519.verify(hexToBytes(signature), message, hexToBytes(publicKey));
  } catch {
    return false;
  }
}

function isSignature(value: unknown): value is DecisionSignature {
  if (typeof value !== "object" || value === null) return false;
  const { keyId, nonce, signature } = value as Record<string, unknown>;
  return [keyId, nonce, signature].every((field) => typeof field === "string" && field !== "");
}

/** Checks the plan's `approverKeys`: ids unique, actors named, public keys 32 bytes of hex. */
export function checkApproverKeys(keys: unknown): string | undefined {
  if (keys === undefined) return undefined;
  if (!Array.isArray(keys)) return "permission.approverKeys must be an array of { id, actor, publicKey }";
  const ids = new Set<string>();
  for (const [index, key] of (keys as Partial<ApproverKey>[]).entries()) {
    const where = `permission.approverKeys[${index}]`;
    if (typeof key !== "object" || key === null) return `${where} must be { id, actor, publicKey }`;
    if (typeof key.id !== "string" || key.id === "") return `${where}.id must be a non-empty string`;
    if (ids.has(key.id)) return `${where}: key id '${key.id}' is declared twice`;
    ids.add(key.id);
    if (typeof key.actor !== "string" || key.actor === "") return `${where}.actor must be a non-empty string`;
    if (typeof key.publicKey !== "string" || !/^[0-9a-fA-F]{64}$/.test(key.publicKey))
      return `${where}.publicKey must be an Ed25519 public key, 64 hex characters (lite-agent keygen prints one)`;
  }
  return undefined;
}
