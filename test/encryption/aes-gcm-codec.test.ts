import { randomBytes } from "node:crypto";
import { defaultPayloadConverter, type Payload } from "@temporalio/common";
import { describe, expect, it } from "vitest";
import {
  AesGcmPayloadCodec,
  ENCRYPTED_ENCODING,
  KEY_ID_METADATA,
  PayloadDecryptionError,
  UnknownEncryptionKeyError,
  createKeyRing,
} from "../../src/encryption/index.js";

const MARKER = "customer-secret-4711";
const key1 = new Uint8Array(randomBytes(32));
const key2 = new Uint8Array(randomBytes(32));
const ringOf = (current: string, ...ids: string[]) =>
  createKeyRing(
    ids.map((id): [string, Uint8Array] => [id, id === "k1" ? key1 : key2]),
    current,
  );

const text = (bytes: Uint8Array | null | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array());
const plain = (): Payload => defaultPayloadConverter.toPayload({ result: MARKER });
const keyIdOf = (payload: Payload) => text(payload.metadata?.[KEY_ID_METADATA]);

describe("AesGcmPayloadCodec", () => {
  it("round trip: encrypts metadata and data (no plain text left), decodes to the original payload", async () => {
    const codec = new AesGcmPayloadCodec(ringOf("k1", "k1"));
    const [encrypted] = await codec.encode([plain()]);
    expect(text(encrypted?.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(keyIdOf(encrypted!)).toBe("k1");
    expect(Buffer.from(encrypted!.data!).includes(MARKER)).toBe(false);
    expect(Buffer.from(encrypted!.data!).includes("json/plain")).toBe(false);
    const [decoded] = await codec.decode([encrypted!]);
    expect(decoded).toEqual(plain());
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual({ result: MARKER });
  });

  it("each encryption uses a fresh IV: the same payload twice gives different ciphertexts", async () => {
    const codec = new AesGcmPayloadCodec(ringOf("k1", "k1"));
    const [a, b] = await codec.encode([plain(), plain()]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it("key rotation: after the current key changes, old payloads still decode and new ones use the new key", async () => {
    const before = new AesGcmPayloadCodec(ringOf("k1", "k1"));
    const [old] = await before.encode([plain()]);
    const after = new AesGcmPayloadCodec(ringOf("k2", "k1", "k2"));
    expect(await after.decode([old!])).toEqual([plain()]);
    const [fresh] = await after.encode([plain()]);
    expect(keyIdOf(fresh!)).toBe("k2");
    expect(await after.decode([fresh!])).toEqual([plain()]);
  });

  it("payloads that are not encrypted pass through decode (sessions from before encryption stay readable)", async () => {
    const codec = new AesGcmPayloadCodec(ringOf("k1", "k1"));
    expect(await codec.decode([plain()])).toEqual([plain()]);
  });

  it("tampered ciphertext fails with a PayloadDecryptionError naming the key", async () => {
    const codec = new AesGcmPayloadCodec(ringOf("k1", "k1"));
    const [encrypted] = await codec.encode([plain()]);
    const data = new Uint8Array(encrypted!.data!);
    data[20] = data[20]! ^ 0x01;
    const decoding = codec.decode([{ ...encrypted!, data }]);
    await expect(decoding).rejects.toBeInstanceOf(PayloadDecryptionError);
    await expect(codec.decode([{ ...encrypted!, data }])).rejects.toThrow(/key 'k1' failed authentication/);
  });

  it("a payload relabelled with another key id fails (the id is authenticated)", async () => {
    const codec = new AesGcmPayloadCodec(ringOf("k1", "k1", "k2"));
    const [encrypted] = await codec.encode([plain()]);
    const relabelled = {
      ...encrypted!,
      metadata: { ...encrypted!.metadata, [KEY_ID_METADATA]: new TextEncoder().encode("k2") },
    };
    await expect(codec.decode([relabelled])).rejects.toBeInstanceOf(PayloadDecryptionError);
  });

  it("the wrong key under the right id fails with a PayloadDecryptionError", async () => {
    const [encrypted] = await new AesGcmPayloadCodec(ringOf("k1", "k1")).encode([plain()]);
    const impostor = new AesGcmPayloadCodec(createKeyRing([["k1", key2]], "k1"));
    await expect(impostor.decode([encrypted!])).rejects.toThrow(PayloadDecryptionError);
  });

  it("an unknown key id gives an UnknownEncryptionKeyError naming it and the keys this process has", async () => {
    const [encrypted] = await new AesGcmPayloadCodec(ringOf("k1", "k1")).encode([plain()]);
    const other = new AesGcmPayloadCodec(ringOf("k2", "k2"));
    const decoding = other.decode([encrypted!]);
    await expect(decoding).rejects.toBeInstanceOf(UnknownEncryptionKeyError);
    await expect(other.decode([encrypted!])).rejects.toThrow(
      /encrypted with key 'k1', which this process does not have \(it has: k2\)/,
    );
  });
});
