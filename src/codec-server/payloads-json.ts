import type { Payload } from "@temporalio/common";
// A default import: @temporalio/proto is CommonJS without named exports that Node's ESM loader can see.
import proto from "@temporalio/proto";

const PayloadsProto = proto.temporal.api.common.v1.Payloads;

/** A request body the codec server cannot read: the message says what is wrong with it. */
export class PayloadsJsonError extends Error {
  override readonly name = "PayloadsJsonError";
}

/**
 * Reads the body of a remote codec request: the protobuf JSON of `temporal.api.common.v1.Payloads`,
 * `{"payloads": [{"metadata": {"encoding": "<base64>"}, "data": "<base64>"}]}` (bytes in base64, as the Temporal
 * UI and CLI send them). Throws {@link PayloadsJsonError} naming the first thing that is wrong.
 */
export function parsePayloadsJson(body: string): Payload[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new PayloadsJsonError('the body is not JSON; expected {"payloads": [...]}');
  }
  const list = (parsed as { payloads?: unknown } | null)?.payloads;
  if (typeof parsed !== "object" || parsed === null || !Array.isArray(list))
    throw new PayloadsJsonError('expected {"payloads": [...]}');
  list.forEach(checkPayload);
  const decoded = PayloadsProto.fromObject({ payloads: list });
  return decoded.payloads.map((payload) => {
    const metadata: Record<string, Uint8Array> = {};
    for (const [name, value] of Object.entries(payload.metadata ?? {}))
      metadata[name] = new Uint8Array(value);
    return { metadata, data: new Uint8Array(payload.data ?? []) };
  });
}

/** The protobuf JSON of `payloads` (the body of a codec server's answer). */
export function payloadsToJson(payloads: Payload[]): string {
  const message = PayloadsProto.fromObject({
    payloads: payloads.map((payload) => ({
      metadata: payload.metadata ?? {},
      data: payload.data ?? new Uint8Array(),
    })),
  });
  return JSON.stringify(PayloadsProto.toObject(message, { bytes: String }));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function checkPayload(payload: unknown, index: number): void {
  const where = `payloads[${index}]`;
  if (typeof payload !== "object" || payload === null)
    throw new PayloadsJsonError(`${where} is not an object`);
  const { metadata, data } = payload as { metadata?: unknown; data?: unknown };
  if (data !== undefined && !isBase64(data))
    throw new PayloadsJsonError(`${where}.data is not a base64 string`);
  if (metadata === undefined) return;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
    throw new PayloadsJsonError(`${where}.metadata is not an object`);
  for (const [name, value] of Object.entries(metadata))
    if (!isBase64(value)) throw new PayloadsJsonError(`${where}.metadata.${name} is not a base64 string`);
}

function isBase64(value: unknown): value is string {
  return typeof value === "string" && value.length % 4 === 0 && BASE64.test(value);
}
