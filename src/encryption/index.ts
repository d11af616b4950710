export {
  AesGcmPayloadCodec,
  CIPHER_METADATA,
  ENCRYPTED_ENCODING,
  KEY_ID_METADATA,
  isEncrypted,
} from "./aes-gcm-codec.js";
export { encryptionKeyRingFromEnv, parseKeyList, readKeyFile } from "./encryption-config.js";
export {
  EncryptionKeysMissingError,
  PayloadDecryptionError,
  UnknownEncryptionKeyError,
} from "./encryption-errors.js";
export { KeylessPayloadCodec } from "./keyless-codec.js";
export { KEY_BYTES, createKeyRing, decodeBase64Key, type EncryptionKeyRing } from "./key-ring.js";
export {
  resolveEncryptionCodec,
  withPayloadEncryption,
  type PayloadEncryptionOption,
} from "./payload-encryption.js";
