import { readFileSync } from "node:fs";
import { createKeyRing, decodeBase64Key, type EncryptionKeyRing } from "./key-ring.js";

/**
 * Reads the payload encryption key ring from `LITE_AGENT_ENCRYPTION_KEYS` or `LITE_AGENT_ENCRYPTION_KEY_FILE` (one,
 * not both: a ring split in two is how rotation forgets a key), with `LITE_AGENT_ENCRYPTION_KEY_ID`; undefined when
 * neither is set. Throws an error naming the variable on any mistake. Formats: docs/operations.md.
 */
export function encryptionKeyRingFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): EncryptionKeyRing | undefined {
  const list = env.LITE_AGENT_ENCRYPTION_KEYS?.trim();
  const file = env.LITE_AGENT_ENCRYPTION_KEY_FILE?.trim();
  const currentOverride = env.LITE_AGENT_ENCRYPTION_KEY_ID?.trim() || undefined;
  if (list && file)
    throw new Error("set LITE_AGENT_ENCRYPTION_KEYS or LITE_AGENT_ENCRYPTION_KEY_FILE, not both");
  if (list) return parseKeyList(list, currentOverride);
  if (file) return readKeyFile(file, currentOverride);
  if (currentOverride)
    throw new Error(
      "LITE_AGENT_ENCRYPTION_KEY_ID is set but there are no keys: set LITE_AGENT_ENCRYPTION_KEYS or LITE_AGENT_ENCRYPTION_KEY_FILE",
    );
  return undefined;
}

/** Parses `id=base64key,...`; the first entry is the current key unless `currentKeyId` names another. */
export function parseKeyList(list: string, currentKeyId?: string): EncryptionKeyRing {
  const source = "LITE_AGENT_ENCRYPTION_KEYS";
  const entries = list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry, index): [string, Uint8Array] => {
      const at = entry.indexOf("=");
      if (at <= 0) throw new Error(`${source}: entry ${index + 1} is not 'id=base64key'`);
      const id = entry.slice(0, at).trim();
      return [id, decodeBase64Key(entry.slice(at + 1), id, source)];
    });
  return createKeyRing(entries, currentKeyId ?? entries[0]?.[0] ?? "", source);
}

/** Reads a JSON key ring file: `{"current": "id", "keys": {"id": "base64key", ...}}`. */
export function readKeyFile(file: string, currentKeyId?: string): EncryptionKeyRing {
  const source = `LITE_AGENT_ENCRYPTION_KEY_FILE (${file})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${source}: cannot read the key ring: ${reason}`);
  }
  const ring = parsed as { current?: unknown; keys?: unknown };
  if (typeof ring !== "object" || ring === null || typeof ring.keys !== "object" || ring.keys === null)
    throw new Error(`${source}: expected {"current": "id", "keys": {"id": "base64key"}}`);
  const entries = Object.entries(ring.keys as Record<string, unknown>).map(
    ([id, key]): [string, Uint8Array] => {
      if (typeof key !== "string") throw new Error(`${source}: key '${id}' is not a base64 string`);
      return [id, decodeBase64Key(key, id, source)];
    },
  );
  const current = currentKeyId ?? (typeof ring.current === "string" ? ring.current : undefined);
  if (!current) throw new Error(`${source}: 'current' (the id of the key that encrypts) is missing`);
  return createKeyRing(entries, current, source);
}
