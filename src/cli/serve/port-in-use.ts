import { createServer } from "node:net";

/** Whether something already listens on `host:port` (a listener there fails with EADDRINUSE). */
export function portInUse(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "EADDRINUSE" ? resolve(true) : reject(error),
    );
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(false)));
  });
}
