import { DefaultLogger, makeTelemetryFilterString, Runtime } from "@temporalio/worker";

/**
 * Installs this test process's Temporal runtime so that every warning of the worker, core included (where the SDK
 * warns about payload sizes), is kept and echoed. Returns the kept lines (`LEVEL message`, and ` {meta}` with
 * `withMeta`). Call it once, at the top of the test file, before anything starts a worker or a native connection.
 */
export function captureWorkerLog(options: { withMeta?: boolean } = {}): string[] {
  const lines: string[] = [];
  Runtime.install({
    logger: new DefaultLogger("WARN", (entry) => {
      const meta = options.withMeta ? ` ${JSON.stringify(entry.meta ?? {})}` : "";
      lines.push(`${entry.level} ${entry.message}${meta}`);
      console.error(`[worker ${entry.level}] ${entry.message}`);
    }),
    telemetryOptions: {
      logging: { forward: {}, filter: makeTelemetryFilterString({ core: "WARN", other: "WARN" }) },
    },
  });
  return lines;
}
