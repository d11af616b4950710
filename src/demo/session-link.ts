/** Temporal's default gRPC port, whose Web UI is on 8233 unless configured otherwise. */
const DEFAULT_GRPC_PORT = "7233";

/**
 * The base URL of the Web UI: the one configured, the one the embedded server reported, or for a local
 * server on the default port the CLI's default UI address; undefined when it cannot be known.
 */
export function webUiBase(
  configured: string | undefined,
  reported: string | undefined,
  address: string,
): string | undefined {
  if (configured) return configured;
  if (reported) return reported;
  const match = /^(localhost|127\.0\.0\.1|\[::1\]):(\d+)$/.exec(address);
  return match && match[2] === DEFAULT_GRPC_PORT ? `http://${match[1]}:8233` : undefined;
}

/** The Web UI page of a session's workflow: `<ui>/namespaces/<ns>/workflows/<sessionId>`. */
export function sessionUiLink(uiBase: string, namespace: string, sessionId: string): string {
  return `${uiBase.replace(/\/+$/, "")}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(sessionId)}`;
}
