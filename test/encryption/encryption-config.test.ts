import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { encryptionKeyRingFromEnv } from "../../src/encryption/index.js";

const b64 = () => randomBytes(32).toString("base64");
const dir = mkdtempSync(path.join(tmpdir(), "keys-"));
function keyFile(content: unknown): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

describe("encryptionKeyRingFromEnv", () => {
  it("off when nothing is set", () => {
    expect(encryptionKeyRingFromEnv({})).toBeUndefined();
  });

  it("LITE_AGENT_ENCRYPTION_KEYS: all keys decrypt, the first encrypts unless LITE_AGENT_ENCRYPTION_KEY_ID names another", () => {
    const [a, b] = [b64(), b64()];
    const ring = encryptionKeyRingFromEnv({ LITE_AGENT_ENCRYPTION_KEYS: ` new=${a}, old=${b} ` });
    expect(ring?.currentKeyId).toBe("new");
    expect([...(ring?.keys.keys() ?? [])]).toEqual(["new", "old"]);
    expect(Buffer.from(ring!.keys.get("old")!).toString("base64")).toBe(b);
    const chosen = encryptionKeyRingFromEnv({
      LITE_AGENT_ENCRYPTION_KEYS: `new=${a},old=${b}`,
      LITE_AGENT_ENCRYPTION_KEY_ID: "old",
    });
    expect(chosen?.currentKeyId).toBe("old");
  });

  it("LITE_AGENT_ENCRYPTION_KEY_FILE: a JSON ring with its current key", () => {
    const file = keyFile({ current: "2026-12", keys: { "2026-11": b64(), "2026-12": b64() } });
    const ring = encryptionKeyRingFromEnv({ LITE_AGENT_ENCRYPTION_KEY_FILE: file });
    expect(ring?.currentKeyId).toBe("2026-12");
    expect(ring?.keys.size).toBe(2);
  });

  it.each([
    [{ LITE_AGENT_ENCRYPTION_KEYS: "k1" }, /LITE_AGENT_ENCRYPTION_KEYS: entry 1 is not 'id=base64key'/],
    [{ LITE_AGENT_ENCRYPTION_KEYS: "k1=not base64!" }, /key 'k1' is not base64/],
    [
      { LITE_AGENT_ENCRYPTION_KEYS: `k1=${randomBytes(16).toString("base64")}` },
      /key 'k1' is 16 bytes; AES-256 needs 32/,
    ],
    [{ LITE_AGENT_ENCRYPTION_KEYS: `k 1=${b64()}` }, /key id 'k 1' is not valid/],
    [{ LITE_AGENT_ENCRYPTION_KEYS: `k1=${b64()},k1=${b64()}` }, /key id 'k1' appears twice/],
    [
      { LITE_AGENT_ENCRYPTION_KEYS: `k1=${b64()}`, LITE_AGENT_ENCRYPTION_KEY_ID: "k9" },
      /the current key id 'k9' is not among its keys \(k1\)/,
    ],
    [{ LITE_AGENT_ENCRYPTION_KEY_ID: "k1" }, /LITE_AGENT_ENCRYPTION_KEY_ID is set but there are no keys/],
    [{ LITE_AGENT_ENCRYPTION_KEYS: `k1=${b64()}`, LITE_AGENT_ENCRYPTION_KEY_FILE: "/x.json" }, /not both/],
  ])("environment %j: clear error", (env, message) => {
    expect(() => encryptionKeyRingFromEnv(env)).toThrow(message);
  });

  it.each([
    ["missing file", () => path.join(dir, "absent.json"), /cannot read the key ring: ENOENT/],
    ["not JSON", () => keyFile("{oops"), /cannot read the key ring/],
    ["no keys object", () => keyFile({ current: "a" }), /expected \{"current": "id", "keys"/],
    ["no current", () => keyFile({ keys: { a: b64() } }), /'current' .* is missing/],
    ["key not a string", () => keyFile({ current: "a", keys: { a: 7 } }), /key 'a' is not a base64 string/],
  ])("key file with %s: clear error naming the file", (_name, file, message) => {
    const path = file();
    expect(() => encryptionKeyRingFromEnv({ LITE_AGENT_ENCRYPTION_KEY_FILE: path })).toThrow(message);
    expect(() => encryptionKeyRingFromEnv({ LITE_AGENT_ENCRYPTION_KEY_FILE: path })).toThrow(path);
  });
});
