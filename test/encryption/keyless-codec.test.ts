import { describe, expect, it } from "vitest";
import {
  AesGcmPayloadCodec,
  createKeyRing,
  EncryptionKeysMissingError,
  KeylessPayloadCodec,
} from "../../src/encryption/index.js";

const plain = { metadata: { encoding: new TextEncoder().encode("json/plain") }, data: new Uint8Array([49]) };

describe("KeylessPayloadCodec (a client without keys)", () => {
  it("passes plain payloads through both ways", async () => {
    const codec = new KeylessPayloadCodec();
    expect(await codec.encode([plain])).toEqual([plain]);
    expect(await codec.decode([plain])).toEqual([plain]);
  });

  it("fails on an encrypted payload naming its key id and the variables that supply keys", async () => {
    const ring = createKeyRing([["ops-2026", new Uint8Array(32).fill(7)]], "ops-2026");
    const [encrypted] = await new AesGcmPayloadCodec(ring).encode([plain]);
    const error = await new KeylessPayloadCodec().decode([plain, encrypted!]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EncryptionKeysMissingError);
    expect((error as EncryptionKeysMissingError).keyId).toBe("ops-2026");
    expect((error as Error).message).toMatch(
      /encrypted with key 'ops-2026'.*set LITE_AGENT_ENCRYPTION_KEYS \('ops-2026=<base64 key>'.*LITE_AGENT_ENCRYPTION_KEY_FILE/,
    );
  });
});
