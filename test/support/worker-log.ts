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

/** Ample time for a log line to reach the logger: core forwards every 10 ms, the runtime holds lines 100 ms. */
const FORWARD_DELAY_MS = 1_500;

/**
 * Waits until what the worker logged so far has reached `lines` (core forwards its log in batches), so that a
 * check for the absence of a warning cannot pass only because the warning is still on its way.
 */
export async function settledWorkerLog(lines: string[]): Promise<string[]> {
  Runtime.instance().flushLogs();
  await new Promise((resolve) => setTimeout(resolve, FORWARD_DELAY_MS));
  Runtime.instance().flushLogs();
  return lines;
}
