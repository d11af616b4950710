import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { ed25519 } from "@noble/curves/ed25519";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils";
import type { DecisionSignature } from "../contract/requests.js";
import { decisionMessage, type DecisionFields } from "../plan/decision-message.js";

/**
 * Signs decisions as one approver: `keyId` and `actor` as declared in the agent's `permission.approverKeys`;
 * `sign` returns the Ed25519 signature of the message (bytes or hex), e.g. from a key held in an HSM.
 */
export interface DecisionSigner {
  keyId: string;
  actor: string;
  sign(message: Uint8Array): Uint8Array | string | Promise<Uint8Array | string>;
}

/** An approver's key file, as `lite-agent keygen` writes it (JSON; keys are hex). */
export interface ApproverKeyFile {
  keyId: string;
  actor: string;
  privateKey: string;
  publicKey?: string;
}

/** A signer holding an Ed25519 private key (32 bytes, hex or bytes). */
export function ed25519Signer(key: {
  keyId: string;
  actor: string;
  privateKey: string | Uint8Array;
}): DecisionSigner {
  const secret = typeof key.privateKey === "string" ? hexToBytes(key.privateKey) : key.privateKey;
  if (secret.length !== 32) throw new TypeError("an Ed25519 private key is 32 bytes (64 hex characters)");
  return { keyId: key.keyId, actor: key.actor, sign: (message) => ed25519.sign(message, secret) };
}

/** A signer from a key file's text (JSON `{ keyId, actor, privateKey }`); the error says what is missing. */
export function signerFromKeyText(text: string, where = "the approver key"): DecisionSigner {
  let parsed: Partial<ApproverKeyFile>;
  try {
    parsed = JSON.parse(text) as Partial<ApproverKeyFile>;
  } catch {
    throw new TypeError(
      `${where} is not JSON (expected { keyId, actor, privateKey }, as lite-agent keygen writes)`,
    );
  }
  const { keyId, actor, privateKey } = parsed ?? {};
  if (
    typeof keyId !== "string" ||
    typeof actor !== "string" ||
    typeof privateKey !== "string" ||
    !keyId ||
    !actor
  )
    throw new TypeError(`${where} must hold { keyId, actor, privateKey } (as lite-agent keygen writes)`);
  return ed25519Signer({ keyId, actor, privateKey });
}

/** A signer from a key file written by `lite-agent keygen`. */
export async function signerFromKeyFile(path: string): Promise<DecisionSigner> {
  return signerFromKeyText(await readFile(path, "utf8"), `key file ${path}`);
}

/** A new Ed25519 key pair for `actor`, as a key file's content (hex). */
export function generateApproverKey(keyId: string, actor: string): Required<ApproverKeyFile> {
  const secret = ed25519.utils.randomPrivateKey();
  return {
    keyId,
    actor,
    privateKey: bytesToHex(secret),
    publicKey: bytesToHex(ed25519.getPublicKey(secret)),
  };
}

/** Signs a decision's fields with a fresh nonce; the signer's key id goes into the signed message. */
export async function signDecision(
  signer: DecisionSigner,
  fields: Omit<DecisionFields, "keyId" | "nonce">,
): Promise<DecisionSignature> {
  const nonce = randomUUID();
  const signed = await signer.sign(decisionMessage({ ...fields, keyId: signer.keyId, nonce }));
  return { keyId: signer.keyId, nonce, signature: typeof signed === "string" ? signed : bytesToHex(signed) };
}
