import {
  StorageDriverClaim,
  defaultPayloadConverter,
  type ExternalStorage,
  type Payload,
  type PayloadCodec,
  type StorageDriver,
} from "@temporalio/common";
import type { Message } from "../kernel/vocabulary/messages.js";
import type { TranscriptSegmentRef } from "../contract/transcript-state.js";

/** What one transcript blob holds. */
export interface TranscriptBlob {
  sessionId: string;
  segment: number;
  messages: Message[];
}

/**
 * Writes a transcript segment as one JSON payload of the session's workflow (`<namespace>/sessions/<session id>/…`,
 * so `deleteSessionBlobs` removes it too), through `codecs` first like every stored payload: encrypted, it is
 * ciphertext, and a retried write, encrypted afresh, gets a key of its own.
 */
export async function storeTranscriptSegment(
  storage: ExternalStorage,
  namespace: string,
  blob: TranscriptBlob,
  codecs: readonly PayloadCodec[] = [],
): Promise<TranscriptSegmentRef> {
  const payload = await encode(defaultPayloadConverter.toPayload(blob), codecs);
  const target = { kind: "workflow" as const, namespace, id: blob.sessionId };
  const driver = pickDriver(storage, payload, target);
  const [claim] = await driver.store({ target }, [payload]);
  const key = claim?.claimData.key;
  if (!key)
    throw new Error(`storage driver '${driver.name}' returned no key for transcript segment ${blob.segment}`);
  return { driver: driver.name, key, count: blob.messages.length, bytes: payload.data?.length ?? 0 };
}

/**
 * Reads the messages of an archived segment, decoding it with `codecs` (the writers' codecs, e.g. their encryption
 * keys); throws when its driver is not configured here or the blob is gone.
 */
export async function readTranscriptSegment(
  storage: ExternalStorage,
  ref: TranscriptSegmentRef & { key: string },
  codecs: readonly PayloadCodec[] = [],
): Promise<Message[]> {
  const driver = ref.driver ? storage.getDriver(ref.driver) : storage.drivers[0];
  if (!driver)
    throw new Error(
      `transcript segment '${ref.key}' is in storage driver '${ref.driver}', which this process does not have`,
    );
  const [stored] = await driver.retrieve({}, [new StorageDriverClaim({ key: ref.key })]);
  const payload = stored ? await decode(stored, codecs) : undefined;
  const blob = payload ? defaultPayloadConverter.fromPayload<TranscriptBlob>(payload) : undefined;
  if (!blob || !Array.isArray(blob.messages)) throw new Error(`transcript segment '${ref.key}' is malformed`);
  return blob.messages;
}

/** The driver the storage's selector picks for the payload, or its first when the selector would keep it inline. */
function pickDriver(
  storage: ExternalStorage,
  payload: Parameters<ExternalStorage["driverSelector"]>[1],
  target: { kind: "workflow"; namespace: string; id: string },
): StorageDriver {
  const selected = storage.drivers.length > 1 ? storage.driverSelector({ target }, payload) : null;
  const driver = selected ?? storage.drivers[0];
  if (!driver) throw new Error("the payload storage has no driver");
  return driver;
}

/** Through the codecs in order, as the data converter encodes. */
async function encode(payload: Payload, codecs: readonly PayloadCodec[]): Promise<Payload> {
  let payloads = [payload];
  for (const codec of codecs) payloads = await codec.encode(payloads);
  return payloads[0]!;
}

/** Through the codecs in reverse order, as the data converter decodes. */
async function decode(payload: Payload, codecs: readonly PayloadCodec[]): Promise<Payload> {
  let payloads = [payload];
  for (const codec of [...codecs].reverse()) payloads = await codec.decode(payloads);
  return payloads[0]!;
}
