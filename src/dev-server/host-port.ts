/** `host:port` as gRPC targets and URLs expect it, with IPv6 literals in brackets (`[::1]:7233`). */
export function hostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
