import { fileURLToPath } from "node:url";
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundle } from "@temporalio/worker";
import { DeterminismViolationError } from "@temporalio/workflow";
import { beforeAll, describe, expect, it } from "vitest";
import { payloadConverterPath, quietLogger } from "../../src/worker/workflow-bundle.js";
import { RECORDER_MIDDLEWARE_MODULES } from "./recorder/recorder-kit.js";
import { withPayloadStorage } from "../../src/storage/payload-storage.js";
import { listHistoryFolder, loadHistoryFile, replayPayloadStorage } from "./history-files.js";

// The replay that fails on purpose makes the worker log the nondeterminism; the assertions are what matter here.
Runtime.install({
  logger: new DefaultLogger("ERROR"),
  telemetryOptions: { logging: { filter: { core: "ERROR", other: "ERROR" } } },
});

/** The committed histories: all recorded before the example change (docs/versioning.md). */
const histories = listHistoryFolder().filter((file) => file.endsWith(".json"));
const dataConverter = withPayloadStorage(undefined, replayPayloadStorage());

/** A bundle of one of the test-only session variants in test/fixtures/deterministic/versioning. */
async function bundleVariant(name: string): Promise<WorkflowBundle> {
  const entry = new URL(`../fixtures/deterministic/versioning/${name}.ts`, import.meta.url);
  const { code } = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(entry),
    payloadConverterPath: payloadConverterPath(),
    // The middleware scenario's agent uses a defineMiddleware module, bundled as a worker bundles it.
    workflowInterceptorModules: RECORDER_MIDDLEWARE_MODULES.map((module) => fileURLToPath(module)),
    logger: quietLogger,
  });
  return { code };
}

/** How replaying `file` on `workflowBundle` ends: undefined when it replays, else the error. */
async function replay(workflowBundle: WorkflowBundle, file: string): Promise<unknown> {
  const { history, workflowId } = loadHistoryFile(file);
  return Worker.runReplayHistory({ workflowBundle, dataConverter }, history, workflowId).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("a behaviour change to the session workflow (docs/versioning.md)", () => {
  let patched: WorkflowBundle;
  let unpatched: WorkflowBundle;
  beforeAll(async () => {
    patched = await bundleVariant("session-patched");
    unpatched = await bundleVariant("session-unpatched");
  }, 120_000);

  it.each(histories)("behind patched(): %s, recorded before the change, still replays", async (file) => {
    expect(await replay(patched, file)).toBeUndefined();
  });

  it("without patched(): a history recorded before the change fails with a DeterminismViolationError", async () => {
    const error = await replay(unpatched, "tool-loop.json");
    expect(error).toBeInstanceOf(DeterminismViolationError);
    expect((error as Error).message).toMatch(/nondeterminism/i);
  });
});
