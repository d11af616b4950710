import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { DefaultLogger, Runtime, Worker, type WorkflowBundle } from "@temporalio/worker";
import { beforeAll, describe, expect, it } from "vitest";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { createAgentTracing } from "../../src/telemetry/agent-tracing.js";
import { WorkerTelemetry } from "../../src/telemetry/worker-telemetry.js";
import { listHistoryFolder, loadHistoryFile, replayPayloadStorage } from "./history-files.js";
import { RECORDER_MIDDLEWARE_MODULES } from "./recorder/recorder-kit.js";

Runtime.install({ logger: new DefaultLogger("ERROR") });

const historyFiles = listHistoryFolder().filter((file) => file.endsWith(".json"));
const exporter = new InMemorySpanExporter();
const telemetry = new WorkerTelemetry(await createAgentTracing({ exporter }));

/**
 * Tracing adds Temporal's OpenTelemetry workflow interceptors to the bundle and a sink call to the session: neither
 * adds a command, so every history recorded without them replays with them, and a replay exports no span of ours
 * (the session reports nothing while it replays).
 */
describe("replay of the recorded histories with tracing on", () => {
  let workflowBundle: WorkflowBundle;
  beforeAll(async () => {
    workflowBundle = await loadWorkflowBundle({
      ...telemetry.bundleOptions,
      modules: RECORDER_MIDDLEWARE_MODULES,
    });
  });

  it.each(historyFiles)("%s replays on the tracing bundle", async (file) => {
    const { history, workflowId } = loadHistoryFile(file);
    const options = {
      workflowBundle,
      dataConverter: { externalStorage: replayPayloadStorage() },
      interceptors: telemetry.interceptors(undefined),
      sinks: telemetry.sinks(undefined),
    };
    await expect(Worker.runReplayHistory(options, history, workflowId)).resolves.toBeUndefined();
    expect(exporter.getFinishedSpans().filter((span) => /^(invoke_agent|turn) /.test(span.name))).toEqual([]);
  });
});
