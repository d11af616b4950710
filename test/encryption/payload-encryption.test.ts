import { randomBytes } from "node:crypto";
import type { PayloadCodec } from "@temporalio/common";
import { afterEach, describe, expect, it } from "vitest";
import {
  AesGcmPayloadCodec,
  createKeyRing,
  resolveEncryptionCodec,
  withPayloadEncryption,
} from "../../src/encryption/index.js";

const ring = createKeyRing([["k1", new Uint8Array(randomBytes(32))]], "k1");
const identity: PayloadCodec = { encode: async (p) => p, decode: async (p) => p };

describe("withPayloadEncryption", () => {
  afterEach(() => {
    delete process.env.LITE_AGENT_ENCRYPTION_KEYS;
  });

  it("a key ring adds the AES-GCM codec after the converter's own codecs (compression before encryption)", () => {
    const converter = withPayloadEncryption({ payloadCodecs: [identity] }, ring);
    expect(converter?.payloadCodecs?.[0]).toBe(identity);
    expect(converter?.payloadCodecs?.[1]).toBeInstanceOf(AesGcmPayloadCodec);
  });

  it("false leaves the converter as it is, even with keys in the environment", () => {
    process.env.LITE_AGENT_ENCRYPTION_KEYS = `k1=${randomBytes(32).toString("base64")}`;
    const base = { payloadCodecs: [identity] };
    expect(withPayloadEncryption(base, false)).toBe(base);
    expect(withPayloadEncryption(undefined, false)).toBeUndefined();
  });

  it("undefined takes the environment's: off without keys, on with LITE_AGENT_ENCRYPTION_KEYS", () => {
    expect(resolveEncryptionCodec(undefined)).toBeUndefined();
    process.env.LITE_AGENT_ENCRYPTION_KEYS = `env=${randomBytes(32).toString("base64")}`;
    const codec = resolveEncryptionCodec(undefined);
    expect(codec).toBeInstanceOf(AesGcmPayloadCodec);
    expect((codec as AesGcmPayloadCodec).currentKeyId).toBe("env");
  });

  it("a codec of your own is used as given", () => {
    expect(resolveEncryptionCodec(identity)).toBe(identity);
  });
});
