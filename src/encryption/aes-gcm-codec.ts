import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Payload, PayloadCodec } from "@temporalio/common";
// A default import: @temporalio/proto is CommonJS without named exports that Node's ESM loader can see.
import proto from "@temporalio/proto";
import { PayloadDecryptionError, UnknownEncryptionKeyError } from "./encryption-errors.js";
import type { EncryptionKeyRing } from "./key-ring.js";

const PayloadProto = proto.temporal.api.common.v1.Payload;

/** The `encoding` of an encrypted payload (the name Temporal's samples and codec servers use). */
export const ENCRYPTED_ENCODING = "binary/encrypted";
/** The metadata entry naming the key a payload was encrypted with. */
export const KEY_ID_METADATA = "encryption-key-id";
/** The metadata entry naming the cipher, so a later format can be told apart. */
export const CIPHER_METADATA = "encryption-cipher";
const CIPHER = "AES-256-GCM";

const IV_BYTES = 12;
const TAG_BYTES = 16;
const text = new TextEncoder();
const fromText = new TextDecoder();

/**
 * A `PayloadCodec` encrypting each whole payload (metadata and data) with AES-256-GCM under the ring's current key:
 * data `iv ‖ ciphertext ‖ tag`, metadata `encoding: binary/encrypted`, `encryption-key-id` (authenticated, so
 * relabelling fails). Decode passes unencrypted payloads through, so sessions from before encryption stay readable.
 */
export class AesGcmPayloadCodec implements PayloadCodec {
  constructor(private readonly ring: EncryptionKeyRing) {}

  /** The id new payloads are encrypted with. */
  get currentKeyId(): string {
    return this.ring.currentKeyId;
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.encrypt(payload));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncrypted(payload) ? this.decrypt(payload) : payload));
  }

  private encrypt(payload: Payload): Payload {
    const keyId = this.ring.currentKeyId;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key(keyId), iv);
    cipher.setAAD(text.encode(keyId));
    const plain = PayloadProto.encode(payload).finish();
    const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return {
      metadata: {
        encoding: text.encode(ENCRYPTED_ENCODING),
        [KEY_ID_METADATA]: text.encode(keyId),
        [CIPHER_METADATA]: text.encode(CIPHER),
      },
      data: new Uint8Array(data),
    };
  }

  private decrypt(payload: Payload): Payload {
    const keyIdBytes = payload.metadata?.[KEY_ID_METADATA];
    if (!keyIdBytes) throw new Error(`encrypted payload has no '${KEY_ID_METADATA}' metadata`);
    const keyId = fromText.decode(keyIdBytes);
    const key = this.key(keyId);
    const data = payload.data ?? new Uint8Array();
    if (data.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError(keyId);
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, data.subarray(0, IV_BYTES));
      decipher.setAAD(keyIdBytes);
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return fromProto(PayloadProto.decode(plain));
    } catch {
      // GCM's own error ("unable to authenticate data") says neither which key nor what to check.
      throw new PayloadDecryptionError(keyId);
    }
  }

  private key(keyId: string): Uint8Array {
    const key = this.ring.keys.get(keyId);
    if (!key) throw new UnknownEncryptionKeyError(keyId, [...this.ring.keys.keys()]);
    return key;
  }
}

/** A decoded payload with plain `Uint8Array`s (protobufjs hands out Node `Buffer`s, which compare unequal). */
function fromProto(decoded: proto.temporal.api.common.v1.Payload): Payload {
  const metadata: Record<string, Uint8Array> = {};
  for (const [name, value] of Object.entries(decoded.metadata ?? {})) metadata[name] = new Uint8Array(value);
  return { metadata, data: new Uint8Array(decoded.data ?? []) };
}

/** Whether a payload is one this codec (or another `binary/encrypted` codec) wrote. */
export function isEncrypted(payload: Payload): boolean {
  const encoding = payload.metadata?.encoding;
  return encoding !== undefined && encoding !== null && fromText.decode(encoding) === ENCRYPTED_ENCODING;
}
