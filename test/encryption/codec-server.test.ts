import { randomBytes } from "node:crypto";
import { defaultPayloadConverter, type Payload } from "@temporalio/common";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  parsePayloadsJson,
  payloadsToJson,
  startCodecServer,
  type RunningCodecServer,
} from "../../src/codec-server/index.js";
import { AesGcmPayloadCodec, createKeyRing, KEY_ID_METADATA } from "../../src/encryption/index.js";

const MARKER = "refund-result-secret-6021";
const UI_ORIGIN = "http://127.0.0.1:8233";
const TOKEN = "s3cret-token";
const key1 = new Uint8Array(randomBytes(32));
const key2 = new Uint8Array(randomBytes(32));
const workers = new AesGcmPayloadCodec(createKeyRing([["k1", key1]], "k1"));

async function encrypted(value: unknown): Promise<Payload> {
  const [payload] = await workers.encode([defaultPayloadConverter.toPayload(value)]);
  return payload!;
}

interface Answer {
  status: number;
  headers: Headers;
  json: { payloads?: unknown[]; error?: string } | undefined;
}

async function call(
  server: RunningCodecServer,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, { method: init.method ?? "POST", ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

const browser = (extra: Record<string, string> = {}) => ({
  Origin: UI_ORIGIN,
  "Content-Type": "application/json",
  "X-Namespace": "default",
  ...extra,
});

describe("the codec server (Temporal's remote codec protocol over node:http)", () => {
  let open: RunningCodecServer;
  let locked: RunningCodecServer;
  let otherKeys: RunningCodecServer;

  beforeAll(async () => {
    // The protocol's checks without the token's: a server for local dev use (codec-server-access.test.ts: the token).
    open = await startCodecServer({ codec: workers, origins: [UI_ORIGIN], insecureNoToken: true });
    locked = await startCodecServer({
      codec: workers,
      origins: [UI_ORIGIN],
      token: TOKEN,
      namespaces: ["default"],
    });
    // A server given only another key ('k2'), and one whose 'k1' is a different key.
    otherKeys = await startCodecServer({
      codec: new AesGcmPayloadCodec(createKeyRing([["k2", key2]], "k2")),
      origins: [UI_ORIGIN],
      insecureNoToken: true,
    });
  });
  afterAll(async () => {
    await Promise.all([open?.close(), locked?.close(), otherKeys?.close()]);
  });

  it("decodes an encrypted payload to the plain JSON payload the UI shows", async () => {
    const payload = await encrypted({ result: MARKER });
    const body = payloadsToJson([payload]);
    expect(body).not.toContain(Buffer.from(MARKER).toString("base64"));
    const answer = await call(open, "/decode", { headers: browser(), body });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe(UI_ORIGIN);
    const [decoded] = parsePayloadsJson(JSON.stringify(answer.json));
    expect(new TextDecoder().decode(decoded!.metadata!.encoding!)).toBe("json/plain");
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual({ result: MARKER });
  });

  it("encodes with the current key, and what it encodes decodes back", async () => {
    const plain = defaultPayloadConverter.toPayload({ answer: MARKER });
    const encoded = await call(open, "/encode", { headers: browser(), body: payloadsToJson([plain]) });
    expect(encoded.status).toBe(200);
    const [payload] = parsePayloadsJson(JSON.stringify(encoded.json));
    expect(new TextDecoder().decode(payload!.metadata![KEY_ID_METADATA]!)).toBe("k1");
    expect(Buffer.from(payload!.data!).includes(MARKER)).toBe(false);
    const decoded = await call(open, "/decode", { headers: browser(), body: JSON.stringify(encoded.json) });
    expect(defaultPayloadConverter.fromPayload(parsePayloadsJson(JSON.stringify(decoded.json))[0]!)).toEqual({
      answer: MARKER,
    });
  });

  it("passes payloads that are not encrypted through decode unchanged", async () => {
    const body = payloadsToJson([defaultPayloadConverter.toPayload("plain")]);
    const answer = await call(open, "/decode", { headers: browser(), body });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.json)).toBe(body);
  });

  it("answers the UI's CORS preflight for its origin only", async () => {
    const preflight = {
      Origin: UI_ORIGIN,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type,x-namespace,authorization",
    };
    const allowed = await call(locked, "/decode", { method: "OPTIONS", headers: preflight });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(UI_ORIGIN);
    expect(allowed.headers.get("access-control-allow-methods")).toContain("POST");
    expect(allowed.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-namespace");
    expect(allowed.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");

    const stranger = "http://evil.example:8233";
    const refused = await call(locked, "/decode", {
      method: "OPTIONS",
      headers: { ...preflight, Origin: stranger },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect(refused.json?.error).toContain(`origin ${stranger} is not allowed`);
    // A POST from that origin is refused too, before the payloads are read.
    const post = await call(open, "/decode", {
      headers: browser({ Origin: stranger }),
      body: payloadsToJson([await encrypted(MARKER)]),
    });
    expect(post.status).toBe(403);
    expect(JSON.stringify(post.json)).not.toContain(MARKER);
  });

  it("serves only the configured namespaces when told to", async () => {
    const body = payloadsToJson([await encrypted(MARKER)]);
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const other = await call(locked, "/decode", {
      headers: browser({ ...auth, "X-Namespace": "prod" }),
      body,
    });
    expect(other.status).toBe(403);
    expect(other.json?.error).toContain("namespace 'prod' is not served here");
  });

  it("a payload under a key the server lacks fails with a clear error naming the key", async () => {
    const body = payloadsToJson([await encrypted({ result: MARKER })]);
    const answer = await call(otherKeys, "/decode", { headers: browser(), body });
    expect(answer.status).toBe(422);
    expect(answer.headers.get("access-control-allow-origin")).toBe(UI_ORIGIN);
    expect(answer.json?.error).toMatch(/cannot decode: payload is encrypted with key 'k1'.*it has: k2/);
    expect(answer.json?.error).toContain("LITE_AGENT_ENCRYPTION_KEYS");
  });

  it("a wrong key under the right id fails authentication, with a clear error", async () => {
    const impostor = await startCodecServer({
      codec: new AesGcmPayloadCodec(createKeyRing([["k1", key2]], "k1")),
      origins: [UI_ORIGIN],
      insecureNoToken: true,
    });
    try {
      const answer = await call(impostor, "/decode", {
        headers: browser(),
        body: payloadsToJson([await encrypted(MARKER)]),
      });
      expect(answer.status).toBe(422);
      expect(answer.json?.error).toContain("key 'k1' failed authentication");
    } finally {
      await impostor.close();
    }
  });

  it("refuses malformed bodies, unknown paths and other methods with the reason", async () => {
    const notJson = await call(open, "/decode", { headers: browser(), body: "nope" });
    expect(notJson.status).toBe(400);
    expect(notJson.json?.error).toContain("not JSON");
    const noList = await call(open, "/decode", { headers: browser(), body: "{}" });
    expect(noList.status).toBe(400);
    const badData = await call(open, "/decode", { headers: browser(), body: '{"payloads":[{"data":"%%"}]}' });
    expect(badData.status).toBe(400);
    expect(badData.json?.error).toContain("payloads[0].data is not a base64 string");
    const unknown = await call(open, "/other", { headers: browser(), body: "{}" });
    expect(unknown.status).toBe(404);
    const get = await call(open, "/decode", { method: "GET", headers: { Origin: UI_ORIGIN } });
    expect(get.status).toBe(405);
  });
});
