import type { DataConverter, PayloadCodec } from "@temporalio/common";
import { AesGcmPayloadCodec } from "./aes-gcm-codec.js";
import { encryptionKeyRingFromEnv } from "./encryption-config.js";
import type { EncryptionKeyRing } from "./key-ring.js";

/**
 * How a worker or client encrypts payloads: a key ring, a `PayloadCodec` of your own, `false` for none, or
 * undefined for the environment's settings ({@link encryptionKeyRingFromEnv}: off unless keys are configured).
 */
export type PayloadEncryptionOption = EncryptionKeyRing | PayloadCodec | false | undefined;

/** Resolves a {@link PayloadEncryptionOption} to the codec it means, or undefined for no encryption. */
export function resolveEncryptionCodec(option: PayloadEncryptionOption): PayloadCodec | undefined {
  if (option === false) return undefined;
  if (option === undefined) {
    const ring = encryptionKeyRingFromEnv();
    return ring ? new AesGcmPayloadCodec(ring) : undefined;
  }
  return "encode" in option ? option : new AesGcmPayloadCodec(option);
}

/**
 * A data converter with the encryption codec added as the last codec (so it encrypts what other codecs, such as
 * compression, produced; decoding runs in reverse). The SDK runs codecs before external storage on the way out
 * and after it on the way in, so stored blobs are ciphertext too. The rest of `base` is kept.
 */
export function withPayloadEncryption(
  base: DataConverter | undefined,
  option: PayloadEncryptionOption,
): DataConverter | undefined {
  const codec = resolveEncryptionCodec(option);
  if (!codec) return base;
  return { ...base, payloadCodecs: [...(base?.payloadCodecs ?? []), codec] };
}
