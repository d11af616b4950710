import { createServer } from "node:net";

/**
 * A TCP port that is free on `host` right now: the OS picks one for a listener on port 0, which is closed again.
 * Another process can still take it before we do, so callers retry a start that fails with "address in use".
 */
export function findFreePort(host = "127.0.0.1", exclude: readonly number[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => {
        if (port === 0) reject(new Error(`could not get a free port on ${host}`));
        // The OS may hand out the same ephemeral port twice in a row; ask again rather than collide.
        else if (exclude.includes(port)) findFreePort(host, exclude).then(resolve, reject);
        else resolve(port);
      });
    });
  });
}
