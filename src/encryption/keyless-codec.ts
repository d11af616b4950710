import type { Payload, PayloadCodec } from "@temporalio/common";
import { isEncrypted, KEY_ID_METADATA } from "./aes-gcm-codec.js";
import { EncryptionKeysMissingError } from "./encryption-errors.js";

const fromText = new TextDecoder();

/**
 * The codec of a client without keys: encodes nothing, and fails on an encrypted payload with an error naming its
 * key id and where keys are set, where the default converter would say only `Unknown encoding: binary/encrypted`.
 */
export class KeylessPayloadCodec implements PayloadCodec {
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads;
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    for (const payload of payloads) {
      if (!isEncrypted(payload)) continue;
      const keyId = payload.metadata?.[KEY_ID_METADATA];
      throw new EncryptionKeysMissingError(keyId ? fromText.decode(keyId) : "(unnamed)");
    }
    return payloads;
  }
}
