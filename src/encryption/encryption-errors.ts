/**
 * A payload names a key id this process does not have: the key was removed from the ring too early, or this
 * process was not given the workers' keys. The workflow task fails and retries, so nothing is lost once the key
 * is configured.
 */
export class UnknownEncryptionKeyError extends Error {
  override readonly name = "UnknownEncryptionKeyError";
  constructor(
    readonly keyId: string,
    known: readonly string[],
  ) {
    super(
      `payload is encrypted with key '${keyId}', which this process does not have (it has: ${known.join(", ")}); ` +
        "add that key to LITE_AGENT_ENCRYPTION_KEYS or the key file (LITE_AGENT_ENCRYPTION_KEY_FILE)",
    );
  }
}

/** An encrypted payload failed authentication: altered in history or storage, or a different key under the same id. */
export class PayloadDecryptionError extends Error {
  override readonly name = "PayloadDecryptionError";
  constructor(readonly keyId: string) {
    super(
      `payload encrypted with key '${keyId}' failed authentication: it was altered, ` +
        `or the key configured as '${keyId}' is not the one it was encrypted with`,
    );
  }
}

/** A payload is encrypted and this process has no encryption keys at all (a client started without them). */
export class EncryptionKeysMissingError extends Error {
  override readonly name = "EncryptionKeysMissingError";
  constructor(readonly keyId: string) {
    super(
      `the session's payloads are encrypted with key '${keyId}' and no encryption keys are configured: ` +
        `set LITE_AGENT_ENCRYPTION_KEYS ('${keyId}=<base64 key>', the workers' keys) or LITE_AGENT_ENCRYPTION_KEY_FILE`,
    );
  }
}
