/** AES-256 keys are 32 bytes. */
export const KEY_BYTES = 32;

/** Key ids travel in every encrypted payload's metadata: short, printable, no separators of the config syntax. */
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The keys a process encrypts and decrypts payloads with: `currentKeyId` encrypts everything new, every key in
 * `keys` decrypts (so payloads written under an older key stay readable after a rotation).
 */
export interface EncryptionKeyRing {
  currentKeyId: string;
  /** Raw 32-byte AES-256 keys by id. */
  keys: ReadonlyMap<string, Uint8Array>;
}

/**
 * Checks and builds a key ring: ids well-formed, every key 32 bytes, the current key among them.
 * Throws an error naming the offending id (never a key's bytes).
 */
export function createKeyRing(
  keys: Iterable<[string, Uint8Array]>,
  currentKeyId: string,
  source = "the key ring",
): EncryptionKeyRing {
  const ring = new Map<string, Uint8Array>();
  for (const [id, key] of keys) {
    if (!KEY_ID.test(id))
      throw new Error(`${source}: key id '${id}' is not valid (letters, digits, '.', '_' and '-'; 1 to 64)`);
    if (key.length !== KEY_BYTES)
      throw new Error(`${source}: key '${id}' is ${key.length} bytes; AES-256 needs ${KEY_BYTES}`);
    if (ring.has(id)) throw new Error(`${source}: key id '${id}' appears twice`);
    ring.set(id, key);
  }
  if (ring.size === 0) throw new Error(`${source}: no keys`);
  if (!ring.has(currentKeyId))
    throw new Error(
      `${source}: the current key id '${currentKeyId}' is not among its keys (${[...ring.keys()].join(", ")})`,
    );
  return { currentKeyId, keys: ring };
}

/**
 * Decodes a base64 key strictly (the standard or URL-safe alphabet, padding optional), so a typo is an error
 * rather than a shorter key.
 */
export function decodeBase64Key(value: string, id: string, source: string): Uint8Array {
  const text = value.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text))
    throw new Error(`${source}: key '${id}' is not base64 (make one with: openssl rand -base64 32)`);
  return new Uint8Array(Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64"));
}
