import { appendFileSync } from "node:fs";
import { DefaultLogger, makeTelemetryFilterString, Runtime } from "@temporalio/worker";

/** The variable that names the file prefix of the SDK core's debug log (a file per process: `<prefix>.<pid>`). */
export const CORE_DEBUG_LOG_VARIABLE = "LITE_AGENT_TEST_CORE_LOG";

/**
 * Installs this process's Temporal runtime: with {@link CORE_DEBUG_LOG_VARIABLE} set, the SDK core's debug lines about
 * workflow tasks (which task it applied, buffered or completed, and every warning) go to `<prefix>.<pid>`, task tokens
 * left out; otherwise only warnings and errors show, as usual. For chasing the SDK's own ordering (docs/operations.md,
 * "Forced replay"); the log grows by megabytes a minute.
 */
export function installTestRuntime(): void {
  const prefix = process.env[CORE_DEBUG_LOG_VARIABLE];
  if (!prefix) return void Runtime.install({ logger: new DefaultLogger("WARN") });
  const file = `${prefix}.${process.pid}`;
  Runtime.install({
    logger: new DefaultLogger("DEBUG", (entry) => {
      const target = String(entry.meta?.target ?? "");
      if (!target.includes("workflow") && entry.level !== "WARN" && entry.level !== "ERROR") return;
      appendFileSync(
        file,
        `${entry.timestampNanos / 1_000_000n} ${entry.level} ${entry.message} ${metaText(entry.meta)}\n`,
      );
    }),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: "DEBUG" }), forward: {} } },
  });
}

/** The line's fields as JSON, without task tokens (long and useless to a reader). */
function metaText(meta: Record<string, unknown> | undefined): string {
  const json = JSON.stringify(meta ?? {}, (_key, value: unknown) =>
    typeof value === "bigint" ? String(value) : value,
  );
  return json.replace(/TaskToken\([^)]*\)|"taskToken":"[^"]*",?/g, "");
}
