import type { IncomingMessage, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { Payload, PayloadCodec } from "@temporalio/common";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { PayloadsJsonError, parsePayloadsJson, payloadsToJson } from "./payloads-json.js";

/** Who may call a codec server: holders of a bearer token, or, said out loud, anyone who sends no `Origin`. */
export type CodecServerAccess =
  | {
      /** Every request but a configured origin's preflight must carry `Authorization: Bearer <token>`. */
      token: string;
      insecureNoToken?: false;
    }
  | {
      token?: undefined;
      /** No token: any local process that sends no `Origin` (or a configured one) can decode. Local dev only. */
      insecureNoToken: true;
    };

/** What a codec server serves, and to whom; without a token or `insecureNoToken` it does not start. */
export type CodecServerSettings = CodecServerAccess & {
  /** The codec that encodes and decodes (the workers' encryption codec). */
  codec: PayloadCodec;
  /**
   * The browser origins (`scheme://host:port`) allowed to call it: the Temporal UI's. A request with another
   * `Origin` is refused, whatever its credentials.
   */
  origins: readonly string[];
  /** When set, only these namespaces (the `X-Namespace` header) are served. */
  namespaces?: readonly string[];
  /** The largest request body taken, in bytes (default 64 MiB). */
  maxBodyBytes?: number;
  /** One line per refused or failed request. */
  log?: (line: string) => void;
};

const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
const ALLOWED_HEADERS = "Content-Type, X-Namespace, Authorization";

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * A Temporal remote codec server's handler (`POST <path>/encode`, `/decode`). Refuses other origins (403), then
 * checks `Authorization: Bearer` (401 missing, 403 wrong) on all but preflights. Throws without a token or
 * `insecureNoToken`.
 */
export function codecRequestHandler(
  settings: CodecServerSettings,
): (request: IncomingMessage, response: ServerResponse) => void {
  checkAccessSettings(settings);
  return (request, response) => {
    const cors = corsHeaders(settings, request.headers.origin);
    handle(settings, request)
      .then((reply) => send(response, reply.status, reply.body, { ...cors, ...reply.headers }))
      .catch((error: unknown) => {
        const status = error instanceof HttpError ? error.status : 500;
        const message = errorMessage(error);
        settings.log?.(`${request.method} ${request.url}: ${status} ${message}`);
        const headers = { ...cors, ...(error instanceof HttpError ? error.headers : {}) };
        send(response, status, JSON.stringify({ error: message }), headers);
      });
  };
}

interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** Refuses a server nobody chose to leave open (no token, no `insecureNoToken`), or both: the types stop TS callers. */
function checkAccessSettings(settings: CodecServerSettings): void {
  const hasToken = settings.token !== undefined && settings.token !== "";
  if (hasToken && settings.insecureNoToken)
    throw new Error("a codec server takes a token or insecureNoToken, not both");
  if (!hasToken && settings.insecureNoToken !== true)
    throw new Error("a codec server needs a token (or insecureNoToken: true, for local development only)");
}

async function handle(settings: CodecServerSettings, request: IncomingMessage): Promise<Reply> {
  const origin = request.headers.origin;
  checkOrigin(settings, origin);
  // A browser's preflight carries no credentials: answer it for a configured origin (checked above) only.
  if (request.method === "OPTIONS" && origin !== undefined) return preflight(request.url);
  if (settings.token) checkToken(settings.token, request.headers.authorization);
  const operation = operationOf(request.url);
  if (!operation)
    throw new HttpError(404, `no such endpoint ${request.url}: use POST /encode or POST /decode`);
  if (request.method !== "POST")
    throw new HttpError(405, `${request.method} is not allowed: use POST`, { Allow: "POST, OPTIONS" });
  checkNamespace(settings.namespaces, headerValue(request.headers["x-namespace"]));
  const payloads = parseBody(await readBody(request, settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
  try {
    const result =
      operation === "encode" ? await settings.codec.encode(payloads) : await settings.codec.decode(payloads);
    return { status: 200, body: payloadsToJson(result) };
  } catch (error) {
    throw new HttpError(422, `cannot ${operation}: ${errorMessage(error)}`);
  }
}

function checkOrigin(settings: CodecServerSettings, origin: string | undefined): void {
  if (origin !== undefined && !settings.origins.includes(origin))
    throw new HttpError(
      403,
      `origin ${origin} is not allowed (allowed: ${settings.origins.join(", ") || "none"}); start the codec server with --origin ${origin}`,
    );
}

function preflight(url: string | undefined): Reply {
  if (!operationOf(url))
    throw new HttpError(404, `no such endpoint ${url}: use POST /encode or POST /decode`);
  return {
    status: 204,
    headers: {
      "Access-Control-Allow-Methods": "POST, OPTIONS",
      "Access-Control-Allow-Headers": ALLOWED_HEADERS,
      "Access-Control-Max-Age": "600",
    },
  };
}

function checkNamespace(served: readonly string[] | undefined, namespace: string | undefined): void {
  if (served && (!namespace || !served.includes(namespace)))
    throw new HttpError(
      403,
      `namespace ${namespace ? `'${namespace}'` : "(no X-Namespace header)"} is not served here (served: ${served.join(", ")})`,
    );
}

function parseBody(body: string): Payload[] {
  try {
    return parsePayloadsJson(body);
  } catch (error) {
    if (error instanceof PayloadsJsonError) throw new HttpError(400, error.message);
    throw error;
  }
}

function operationOf(url: string | undefined): "encode" | "decode" | undefined {
  const path = (url ?? "").split("?")[0]!.replace(/\/+$/, "");
  if (path.endsWith("/encode")) return "encode";
  if (path.endsWith("/decode")) return "decode";
  return undefined;
}

function checkToken(token: string, authorization: string | undefined): void {
  const challenge = { "WWW-Authenticate": 'Bearer realm="lite-agent codec server"' };
  if (!authorization)
    throw new HttpError(401, "this codec server needs 'Authorization: Bearer <token>'", challenge);
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  if (!match) throw new HttpError(401, "the Authorization header is not 'Bearer <token>'", challenge);
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new HttpError(403, "the bearer token is not the codec server's");
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function corsHeaders(settings: CodecServerSettings, origin: string | undefined): Record<string, string> {
  if (origin === undefined || !settings.origins.includes(origin)) return { Vary: "Origin" };
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    Vary: "Origin",
  };
}

async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, `the body is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function send(
  response: ServerResponse,
  status: number,
  body: string | undefined,
  headers: Record<string, string>,
): void {
  response.writeHead(status, {
    ...headers,
    ...(body === undefined ? {} : { "Content-Type": "application/json" }),
  });
  response.end(body);
}
