import {
  defaultPayloadConverter,
  type ConverterHint,
  type Payload,
  type PayloadConverter,
  type SerializationContext,
} from "@temporalio/common";

/**
 * The key of the record that stands in for a payload the workflow could not decode. A string key (not a symbol),
 * so the record stays visible if it is ever logged or serialised.
 */
export const UNDECODABLE = "__undecodablePayload";

/** What a handler receives instead of an argument whose payload could not be decoded. */
export interface UndecodablePayload {
  [UNDECODABLE]: string;
}

/** Why an argument could not be decoded, or undefined when it is an ordinary value. */
export function undecodableReason(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !(UNDECODABLE in value)) return undefined;
  const reason = (value as Record<string, unknown>)[UNDECODABLE];
  return typeof reason === "string" ? reason : "undecodable payload";
}

function describePayload(payload: Payload): string {
  const encoding = payload.metadata?.encoding;
  if (!encoding) return "no encoding";
  // Encoding names are ASCII; anything else shows as its character codes, which is enough to tell what was sent.
  return `encoding '${String.fromCharCode(...encoding.subarray(0, 40))}'`;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 199)}…` : message;
}

/**
 * Temporal's default payload converter, except that an undecodable payload (malformed JSON, an unknown or missing
 * encoding, as the UI's signal form can send) becomes an {@link UndecodablePayload} the handler refuses, not an
 * exception, which would fail the workflow task on every replay and wedge the session. Encoding is unchanged.
 */
export class LenientPayloadConverter implements PayloadConverter {
  toPayload<T>(value: T, context?: SerializationContext, hint?: ConverterHint<T>): Payload {
    return defaultPayloadConverter.toPayload(value, context, hint);
  }

  fromPayload<T>(payload: Payload, context?: SerializationContext, hint?: ConverterHint<T>): T {
    try {
      return defaultPayloadConverter.fromPayload<T>(payload, context, hint);
    } catch (error) {
      const record: UndecodablePayload = {
        [UNDECODABLE]: `undecodable payload (${describePayload(payload)}): ${errorText(error)}`,
      };
      return record as T;
    }
  }
}

/** The module export the workflow bundler looks for (`payloadConverterPath`). */
export const payloadConverter = new LenientPayloadConverter();
