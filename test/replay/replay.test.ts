import {
  ExternalStorage,
  type StorageDriverClaim,
  type StorageDriverRetrieveContext,
} from "@temporalio/common";
import { DefaultLogger, Runtime, Worker } from "@temporalio/worker";
import { DeterminismViolationError } from "@temporalio/workflow";
import { beforeAll, describe, expect, it } from "vitest";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FilesystemStorageDriver } from "../../src/storage/filesystem-driver.js";
import { blobToPayload } from "../../src/storage/payload-blob.js";
import { DEFAULT_PAYLOAD_THRESHOLD } from "../../src/storage/storage-config.js";
import { INLINE_REQUEST_LIMIT } from "../../src/workflows/run/durable-model.js";
import { recordFirstModelCallAsTool, spreadWorkflowTaskTimes } from "./alter-history.js";
import { scheduledActivities, storedPayloadReferences } from "./history-events.js";
import {
  historyFileName,
  listHistoryFolder,
  listPayloadKeys,
  loadHistoryFile,
  PAYLOADS_DIR,
} from "./history-files.js";
import { SCENARIOS, markerNames } from "./scenario-catalog.js";
import { RECORDER_MIDDLEWARE_MODULES } from "./recorder/recorder-kit.js";

// The replays that fail on purpose make the worker log the nondeterminism; the assertions are what matter here.
Runtime.install({
  logger: new DefaultLogger("ERROR"),
  telemetryOptions: { logging: { filter: { core: "ERROR", other: "ERROR" } } },
});

/** Listed once, when the tests are collected: every file in the folder becomes its own test. */
const folder = listHistoryFolder();
const historyFiles = folder.filter((file) => file.endsWith(".json"));
const replayed = new Set<string>();
/** The blobs the replays read, by key: the stored payloads resolve from test/replay/payloads. */
const retrieved = new Set<string>();
class RecordingDriver extends FilesystemStorageDriver {
  override async retrieve(context: StorageDriverRetrieveContext, claims: StorageDriverClaim[]) {
    const payloads = await super.retrieve(context, claims);
    for (const claim of claims) retrieved.add(String(claim.claimData.key));
    return payloads;
  }
}
/** The storage the histories were recorded with (the filesystem driver on test/replay/payloads). */
const dataConverter = {
  externalStorage: new ExternalStorage({
    drivers: [new RecordingDriver({ dir: PAYLOADS_DIR })],
    payloadSizeThreshold: DEFAULT_PAYLOAD_THRESHOLD,
  }),
};

describe("replay of the recorded histories", () => {
  let workflowBundle: Awaited<ReturnType<typeof loadWorkflowBundle>>;
  beforeAll(async () => {
    workflowBundle = await loadWorkflowBundle({ modules: RECORDER_MIDDLEWARE_MODULES });
  });

  it.each(historyFiles)("%s replays without a determinism error", async (file) => {
    const { history, workflowId } = loadHistoryFile(file);
    await expect(
      Worker.runReplayHistory({ workflowBundle, dataConverter }, history, workflowId),
    ).resolves.toBeUndefined();
    replayed.add(file);
  });

  it.each(historyFiles)(
    "%s with its first model call recorded as a tool call fails with a DeterminismViolationError",
    async (file) => {
      const { history, workflowId } = loadHistoryFile(file);
      const replay = Worker.runReplayHistory(
        { workflowBundle, dataConverter },
        recordFirstModelCallAsTool(history),
        workflowId,
      );
      const error = await replay.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(DeterminismViolationError);
      expect((error as Error).name).toBe("DeterminismViolationError");
      expect((error as Error).message).toMatch(/nondeterminism/i);
    },
  );

  // A worker that takes over a session after a crash can run its first workflow task with the time of the task
  // before (docs/decisions/0014): what executions record now must not depend on the time a task saw.
  it.each(historyFiles)(
    "%s replays alike when every workflow task saw a later time than the live run did",
    async (file) => {
      const { history, workflowId } = loadHistoryFile(file);
      await expect(
        Worker.runReplayHistory(
          { workflowBundle, dataConverter },
          spreadWorkflowTaskTimes(history, 30_000),
          workflowId,
        ),
      ).resolves.toBeUndefined();
    },
  );

  it.each(SCENARIOS.filter((spec) => spec.storesPayloads).map((spec) => spec.name))(
    "%s needs its stored payloads: without the storage its replay fails",
    async (name) => {
      const { history, workflowId } = loadHistoryFile(historyFileName(name, 0, 1));
      const error = await Worker.runReplayHistory({ workflowBundle }, history, workflowId).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      // The workflow task fails on the reference (ExternalStorageNotConfiguredError, in the worker's log).
      expect(error).toBeDefined();
      expect((error as Error).name).not.toBe("DeterminismViolationError");
    },
  );
});

describe("the histories folder", () => {
  it("is not empty", () => {
    expect(historyFiles.length).toBeGreaterThan(0);
  });

  it("holds only .json histories, and every one of them was replayed above", () => {
    expect(folder.filter((file) => !file.endsWith(".json"))).toEqual([]);
    expect([...replayed].sort()).toEqual(historyFiles);
  });

  it("holds every execution of every scenario the recorder plays, each showing its branch", () => {
    for (const spec of SCENARIOS) {
      const files = Array.from({ length: spec.executions }, (_, index) =>
        historyFileName(spec.name, index, spec.executions),
      );
      expect(historyFiles, `${spec.name}: ${spec.shows}`).toEqual(expect.arrayContaining(files));
      expect(
        spec.exercised(files.map((file) => loadHistoryFile(file).history)),
        `${spec.name} shows ${spec.shows}`,
      ).toBe(true);
    }
  });

  it("records no marker: no patch and no local activity, whose result a live worker can take a task late", () => {
    for (const file of historyFiles) expect(markerNames(loadHistoryFile(file).history), file).toEqual([]);
  });

  it("holds a blob for every stored payload, and only those, and only where the scenario stores payloads", () => {
    const storing = new Set(
      SCENARIOS.filter((spec) => spec.storesPayloads).flatMap((spec) =>
        Array.from({ length: spec.executions }, (_, index) =>
          historyFileName(spec.name, index, spec.executions),
        ),
      ),
    );
    const referenced = new Set<string>();
    // What the workflow receives on replay (activity results, inputs...) is resolved by the replays above; what it
    // sent (an activity's input) is not, and is read by the callModel check below.
    const received = new Set<string>();
    for (const file of historyFiles) {
      const references = storedPayloadReferences(loadHistoryFile(file).history);
      if (!storing.has(file)) expect(references, `${file} must be whole on its own`).toEqual([]);
      for (const reference of references) {
        expect(reference.driverName, file).toBe("lite-agent-fs");
        referenced.add(reference.key);
        if (!reference.place.endsWith("activityTaskScheduledEventAttributes")) received.add(reference.key);
      }
    }
    expect(referenced.size).toBeGreaterThan(0);
    expect(listPayloadKeys()).toEqual([...referenced].sort());
    expect(received.size).toBeGreaterThan(0);
    expect([...retrieved].sort()).toEqual([...received].sort());
  });

  it("keeps callModel inputs small in history: inline up to the limit, larger only as a stored reference", () => {
    // How each recorded model call got its request: whole (inline), as a change of the previous one, or only
    // by key (read by query). The histories hold each kind, so this check covers all three.
    const kinds = { inline: 0, delta: 0, byKey: 0, stored: 0 };
    for (const file of historyFiles) {
      for (const event of scheduledActivities(loadHistoryFile(file).history, "callModel")) {
        const payload = event.activityTaskScheduledEventAttributes?.input?.payloads?.[0];
        const reference = storedPayloadReferences({ events: [event] })[0];
        if (reference) kinds.stored++;
        else {
          const bytes = payload?.data?.byteLength ?? 0;
          expect(bytes, file).toBeLessThanOrEqual(INLINE_REQUEST_LIMIT + 1024);
        }
        const data = Buffer.from(
          (reference ? readStoredPayload(reference.key) : payload)?.data ?? new Uint8Array(),
        ).toString("utf8");
        const input = JSON.parse(data) as Record<string, unknown>;
        expect(input, file).toHaveProperty("requestKey");
        kinds[input.request ? "inline" : input.delta ? "delta" : "byKey"]++;
      }
    }
    expect(kinds.inline).toBeGreaterThan(0);
    expect(kinds.delta).toBeGreaterThan(0);
    expect(kinds.byKey + kinds.stored).toBeGreaterThan(0);
  });
});

/** A committed blob, read back as the payload it stores (its digest checked). */
function readStoredPayload(key: string) {
  return blobToPayload(readFileSync(join(PAYLOADS_DIR, ...key.split("/"))), key.split("/").at(-1)!, key);
}
