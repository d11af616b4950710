import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { codecRequestHandler, type CodecServerSettings } from "./codec-request-handler.js";

/** Where a codec server listens, besides what it serves. */
export type StartCodecServerOptions = CodecServerSettings & {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
};

/** A listening codec server. */
export interface RunningCodecServer {
  /** The base URL to configure as the UI's codec endpoint (`http://host:port`). */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** Stops listening and closes open connections; resolves once closed. */
  close(): Promise<void>;
}

/**
 * Starts a Temporal remote codec server (see {@link codecRequestHandler}) on node:http: point the Temporal UI's
 * codec endpoint (`temporal server start-dev --ui-codec-endpoint`, the UI's "Codec Server" setting, or
 * `TEMPORAL_CODEC_ENDPOINT` for a self-hosted UI) or `temporal workflow show --codec-endpoint` at its URL.
 */
export async function startCodecServer(options: StartCodecServerOptions): Promise<RunningCodecServer> {
  const host = options.host ?? "127.0.0.1";
  if (options.insecureNoToken && !isLoopback(host))
    throw new Error(
      `a codec server without a token serves this machine only: host '${host}' is not a loopback address (use a token)`,
    );
  const server = createServer(codecRequestHandler(options));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Whether `host` names this machine only: `localhost`, 127.0.0.0/8 or ::1. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}
