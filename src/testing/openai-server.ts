import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { completionChunks } from "./openai-server-chunks.js";
import { completionBody, type CompletionContext } from "./openai-server-completion.js";
import { errorBody } from "./openai-server-error-body.js";
import {
  isErrorResponse,
  type RecordedRequest,
  type OpenAIServerCompletion,
  type OpenAIServerResponse,
  type OpenAIServerStaticResponse,
} from "./openai-server-script.js";
import { streamEvents } from "./openai-server-sse.js";

export type * from "./openai-server-script.js";

/** Options of {@link startOpenAIServer}. */
export interface OpenAIServerOptions {
  /** The first scripted responses; more can be added with `script()`. */
  responses?: readonly OpenAIServerResponse[];
  /** Listed by `GET /v1/models`. Default `["local-model"]`. */
  models?: readonly string[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
}

/** A running scripted OpenAI-compatible server. */
export interface OpenAIServer {
  /** `http://<host>:<port>`. */
  readonly url: string;
  /** `<url>/v1`: what an OpenAI client takes as `baseURL`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request received (chat, models and unknown ones), in arrival order. */
  readonly requests: RecordedRequest[];
  /** Appends responses to the script; each chat completion request takes the next one. */
  script(...responses: OpenAIServerResponse[]): void;
  /** Scripted responses not used yet. */
  readonly pending: number;
  /** Stops the server, cutting any open streams. */
  close(): Promise<void>;
}

/** The server's mutable state. */
interface ServerState {
  queue: OpenAIServerResponse[];
  requests: RecordedRequest[];
  chatCount: number;
  options: OpenAIServerOptions;
}

/**
 * Starts an HTTP server speaking OpenAI Chat Completions for tests: `POST /v1/chat/completions` answers from a script
 * (SSE or JSON: text, reasoning, tool calls, usage, slow streams, HTTP or in-stream errors, dropped connections) and
 * records every request; `GET /v1/models` lists models. Past the script it answers 500 (`script exhausted …`).
 */
export async function startOpenAIServer(options: OpenAIServerOptions = {}): Promise<OpenAIServer> {
  const state: ServerState = { queue: [...(options.responses ?? [])], requests: [], chatCount: 0, options };
  const server = createServer((req, res) => {
    handle(req, res, state).catch((error: unknown) => failRequest(res, error));
  });
  const host = options.host ?? "127.0.0.1";
  await listen(server, host, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests: state.requests,
    script: (...responses) => void state.queue.push(...responses),
    get pending() {
      return state.queue.length;
    },
    close: () => (closing ??= closeServer(server)),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, state: ServerState): Promise<void> {
  const recorded = await recordRequest(req);
  state.requests.push(recorded);
  const { apiKey } = state.options;
  if (apiKey !== undefined && recorded.headers.authorization !== `Bearer ${apiKey}`) {
    const message = "Incorrect API key provided. You can find your API key at your provider.";
    return sendJson(res, 401, { error: errorBody({ message, code: "invalid_api_key" }, 401) });
  }
  const path = (recorded.path.split("?")[0] ?? "").replace(/\/+$/, "");
  if (req.method === "GET" && (path === "/v1/models" || path === "/models")) return sendModels(res, state);
  if (req.method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions")) {
    return respondToChat(res, recorded, state);
  }
  const message = `Unknown request URL: ${req.method ?? "?"} ${path}.`;
  sendJson(res, 404, { error: errorBody({ message, code: "unknown_url" }, 404) });
}

async function respondToChat(
  res: ServerResponse,
  request: RecordedRequest,
  state: ServerState,
): Promise<void> {
  if (typeof request.body !== "object" || request.body === null) {
    const message = "We could not parse the JSON body of your request.";
    return sendJson(res, 400, { error: errorBody({ message }, 400) });
  }
  const index = state.chatCount++;
  const entry = state.queue.shift();
  if (entry === undefined) {
    const message = `openAIServer: script exhausted after ${index} responses (request #${index + 1})`;
    return sendJson(res, 500, { error: errorBody({ message, type: "script_exhausted" }, 500) });
  }
  const response: OpenAIServerStaticResponse =
    typeof entry === "function" ? await entry(request, index) : entry;
  if (isErrorResponse(response)) {
    return sendJson(
      res,
      response.status,
      { error: errorBody(response.error, response.status) },
      response.headers,
    );
  }
  const body = request.body as { model?: unknown; stream?: unknown };
  const context: CompletionContext = {
    id: `chatcmpl-local-${index + 1}`,
    created: Math.floor(Date.now() / 1000),
    model: typeof body.model === "string" && body.model ? body.model : "local-model",
    index,
    request,
  };
  if (body.stream === true) return streamEvents(res, completionChunks(response, context), response);
  respondWhole(res, response, context);
}

/** A non-streaming answer; a scripted drop or stream error still fails the request. */
function respondWhole(
  res: ServerResponse,
  response: OpenAIServerCompletion,
  context: CompletionContext,
): void {
  if (response.dropAfterChunks !== undefined) {
    res.socket?.destroy();
    return;
  }
  if (response.streamError) {
    const code = Number(response.streamError.code);
    const status = code >= 400 && code <= 599 ? code : 500;
    return sendJson(res, status, { error: errorBody(response.streamError, status) }, response.headers);
  }
  sendJson(res, 200, completionBody(response, context), response.headers);
}

function sendModels(res: ServerResponse, state: ServerState): void {
  const created = Math.floor(Date.now() / 1000);
  const data = (state.options.models ?? ["local-model"]).map((id) => ({
    id,
    object: "model",
    created,
    owned_by: "local",
  }));
  sendJson(res, 200, { object: "list", data });
}

async function recordRequest(req: IncomingMessage): Promise<RecordedRequest> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const rawBody = Buffer.concat(parts).toString("utf8");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { method: req.method ?? "GET", path: req.url ?? "/", headers, body: parseJson(rawBody), rawBody };
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A script function that threw, or any other bug: answer 500 with the reason, loudly. */
function failRequest(res: ServerResponse, error: unknown): void {
  const message = `openAIServer: ${error instanceof Error ? error.message : String(error)}`;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, 500, { error: errorBody({ message, type: "server_error" }, 500) });
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
