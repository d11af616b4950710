import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, Connection } from "@temporalio/client";
import { temporal } from "@temporalio/proto";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { ENCRYPTED_ENCODING } from "../../src/encryption/aes-gcm-codec.js";
import { withPayloadEncryption } from "../../src/encryption/payload-encryption.js";
import { historyToJSONObject } from "../../src/client/events/history-json.js";
import { loadWorkflowBundle } from "../../src/worker/workflow-bundle.js";
import { withPayloadStorage } from "../../src/storage/payload-storage.js";
import { storageConfigFromEnv } from "../../src/storage/storage-config.js";
import { storedPayloadReferences } from "../replay/history-events.js";
import { replayMode } from "../support/forced-replay.mjs";
import {
  describeReplayFailure,
  replayAtEveryCut,
  workflowTaskCount,
  type RecordedExecution,
} from "../support/replay-at-every-cut.js";
import { temporalAddress } from "../support/temporal.js";
import { failedWorkflowTasks } from "../support/history-tasks.js";

// Runs last (its own group, vitest.config.ts): every execution of a session the run's tests wrote on the suite's dev
// server is replayed from its start, cut at every workflow task boundary (what a cold worker taking the session over
// at that task sees; at most MAX_CUTS of them, below) and whole, with the workflow code and the environment's payload
// storage. A history a live worker wrote that a replay does not reproduce is a session another worker, a fork or an
// upgrade cannot take over. No workflow task of those sessions may have failed on a live worker other than by
// Temporal's bookkeeping (history-tasks.ts): a nondeterminism error that a later attempt passes is a defect too. The
// chaos test checks both for its own server's histories (bench/chaos.ts).
//
// What it does not replay, and says so in its output: workflows of other types (the hand-written loop the promise
// count compares with, bench/minimal-loop: not the product's code), and executions whose payloads only their test
// could read (encrypted with its keys, or stored in its own folder or bucket, gone with it): their tests own them.

const { TaskQueueKind } = temporal.api.enums.v1;
/**
 * The most cuts replayed of one execution, spread evenly over its workflow tasks: each cut replays the history up to
 * it, so cutting a long execution (the 2,000-turn run's, about 2,000 events each) at every one of its hundreds of
 * tasks would take most of an hour on two cores; 20 cuts cost about ten whole replays. Executions with more tasks
 * than this are named in the output.
 */
const MAX_CUTS = 20;
/**
 * The cuts the executions of one continue-as-new chain share, when it has more than two: each takes its first and last
 * task and an equal part of the rest, at places shifted from one execution to the next (replay-at-every-cut.ts), so the
 * chain is cut at as many different places as two executions at MAX_CUTS, for a fraction of the replay (the 2,000-turn
 * run's 13 executions: 4 cuts each instead of 20).
 */
const CUTS_PER_CHAIN = 2 * MAX_CUTS;
const MIN_CUTS_PER_EXECUTION = 4;
/** Where the histories that do not replay are written (git-ignored). */
const FAILED_HISTORIES_DIR = fileURLToPath(new URL("../../.cache/histories-not-replaying/", import.meta.url));
/** The one workflow type the project's bundle registers (src/workflows/index.ts). */
const SESSION_WORKFLOW_TYPE = "agentSession";

/**
 * Sessions on the default task queues are the README's and guides' samples the package test runs in a scratch project
 * (test/package/installed-package.test.ts): their middleware modules are compiled there, not bundled here. Every
 * other test gives its workers a queue of its own (uniqueTaskQueue).
 */
const DEFAULT_QUEUE_PREFIX = "lite-agent.";
const SCRATCH_PROJECT_SESSIONS =
  "a README or guide sample's session, whose middleware lives in the package test's scratch project";

/** The tests' own middleware modules: the sessions of their agents replay with them bundled, as their workers ran. */
const MIDDLEWARE_DIR = new URL("./fixtures/middleware/", import.meta.url);
const middlewareModules = readdirSync(MIDDLEWARE_DIR)
  .filter((file) => file.endsWith(".ts"))
  .map((file) => fileURLToPath(new URL(file, MIDDLEWARE_DIR)));

let client: Client;
beforeAll(async () => {
  const connection = await Connection.connect({ address: temporalAddress() });
  client = new Client({ connection, namespace: inject("temporalNamespace") });
});
afterAll(async () => {
  await client?.connection.close();
});

/** What the run wrote: executions to replay, and those left out with why. */
interface Listing {
  replayed: RecordedExecution[];
  leftOut: string[];
  /** Executions with more workflow tasks than {@link MAX_CUTS}: cut at some of them. */
  thinned: string[];
  /** Workflow tasks the session histories record as failed, other than by Temporal's bookkeeping. */
  failedTasks: string[];
}

/**
 * Every execution of the server's sessions (closed or open, each run of a continue-as-new chain) whose payloads this
 * process can read, with its history, into `listing`. Listed raw: the SDK's list decodes memos, which some tests
 * encrypt.
 */
async function listSessionExecutions(listing: Listing): Promise<void> {
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.listWorkflowExecutions({
      namespace: client.options.namespace,
      nextPageToken,
    });
    for (const { execution, type } of page.executions ?? []) {
      const [workflowId, runId] = [execution!.workflowId!, execution!.runId!];
      if (type?.name !== SESSION_WORKFLOW_TYPE) {
        listing.leftOut.push(`${workflowId} (run ${runId}): workflow type ${type?.name}`);
        continue;
      }
      const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
      for (const failed of failedWorkflowTasks(history))
        listing.failedTasks.push(
          `${workflowId} (run ${runId}) event ${failed.eventId}: ${failed.cause}: ${failed.message}`,
        );
      const queue = history.events?.[0]?.workflowExecutionStartedEventAttributes?.taskQueue?.name ?? "";
      if (queue.startsWith(DEFAULT_QUEUE_PREFIX)) {
        listing.leftOut.push(`${workflowId} (run ${runId}): ${SCRATCH_PROJECT_SESSIONS} (${queue})`);
        continue;
      }
      const unreadable = unreadablePayloads(history);
      if (unreadable) {
        listing.leftOut.push(`${workflowId} (run ${runId}): ${unreadable}`);
        continue;
      }
      listing.replayed.push({ workflowId, runId, history });
    }
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  planCuts(listing);
}

/** Which cuts each execution replays: MAX_CUTS, or its part of a long chain's CUTS_PER_CHAIN; the thinned, named. */
function planCuts(listing: Listing): void {
  const chains = new Map<string, RecordedExecution[]>();
  for (const execution of listing.replayed)
    chains.set(execution.workflowId, [...(chains.get(execution.workflowId) ?? []), execution]);
  for (const chain of chains.values()) {
    const max =
      chain.length > 2
        ? Math.max(MIN_CUTS_PER_EXECUTION, Math.ceil(CUTS_PER_CHAIN / chain.length))
        : MAX_CUTS;
    chain.forEach((execution, index) => {
      execution.cuts = { max, phase: index / chain.length };
      const tasks = workflowTaskCount(execution.history);
      if (tasks > max)
        listing.thinned.push(`${execution.workflowId} (run ${execution.runId}): ${max} cuts of ${tasks}`);
    });
  }
}

/**
 * The executions in `count` shares of about the same number of events, to replay side by side (one replay worker
 * each: the machine's cores then all work).
 */
function shares(executions: RecordedExecution[], count: number): RecordedExecution[][] {
  const size = (execution: RecordedExecution) => execution.history.events?.length ?? 0;
  const result = Array.from({ length: count }, () => ({ events: 0, executions: [] as RecordedExecution[] }));
  for (const execution of [...executions].sort((a, b) => size(b) - size(a))) {
    const lightest = result.reduce((least, share) => (share.events < least.events ? share : least));
    lightest.executions.push(execution);
    lightest.events += size(execution);
  }
  return result.map((share) => share.executions);
}

/**
 * Why this process cannot read some payload of a history, or undefined: an encrypted one (its test's keys), or a stored
 * one not in the environment's folder. (A replay that meets such a payload does not fail, it stops the replay worker.)
 */
function unreadablePayloads(history: temporal.api.history.v1.IHistory): string | undefined {
  if (hasEncryptedPayload(history.events ?? [])) return "payloads encrypted with its test's keys";
  const storage = storageConfigFromEnv();
  const missing = storedPayloadReferences(history).find(
    (reference) =>
      storage.kind !== "fs" ||
      reference.driverName !== "lite-agent-fs" ||
      !existsSync(join(storage.dir, reference.key)),
  );
  return missing && `stored payload ${missing.driverName}:${missing.key} is in its test's own storage`;
}

const ENCRYPTED = Buffer.from(ENCRYPTED_ENCODING);
function hasEncryptedPayload(value: unknown): boolean {
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return false;
  const encoding = (value as { metadata?: Record<string, unknown> }).metadata?.encoding;
  if (encoding instanceof Uint8Array && ENCRYPTED.equals(encoding)) return true;
  return Object.values(value).some(hasEncryptedPayload);
}

it("every session execution the tests wrote replays from its start, cut at every workflow task and whole", async () => {
  const workflowBundle = await loadWorkflowBundle({ modules: middlewareModules });
  const dataConverter = withPayloadStorage(withPayloadEncryption(undefined, undefined), undefined);
  const listing: Listing = { replayed: [], leftOut: [], thinned: [], failedTasks: [] };
  await listSessionExecutions(listing);
  const replays = shares(listing.replayed, Math.max(1, Math.min(availableParallelism(), 4))).map((share) =>
    replayAtEveryCut(share, { workflowBundle, dataConverter }, MAX_CUTS),
  );
  const failures = (await Promise.all(replays)).flat();
  console.log(
    [
      `replayed ${listing.replayed.length} executions, each whole and cut at every workflow task but these:`,
      ...listing.thinned,
      `left out ${listing.leftOut.length}:`,
      ...listing.leftOut,
      `failed workflow tasks ${listing.failedTasks.length}:`,
      ...listing.failedTasks,
    ].join("\n  "),
  );
  expect(
    listing.replayed.length,
    "no session on the server: run this file after the suites (npx vitest run test/e2e)",
  ).toBeGreaterThan(0);
  // Each history that does not replay is kept, to replay it again (`lite-agent replay <file>`) or file it.
  mkdirSync(FAILED_HISTORIES_DIR, { recursive: true });
  for (const failure of failures) {
    const { history } = listing.replayed.find((execution) => execution.runId === failure.runId)!;
    const file = join(FAILED_HISTORIES_DIR, `${failure.workflowId}.${failure.runId}.json`);
    writeFileSync(file, JSON.stringify(historyToJSONObject(history), null, 2));
    failure.error += ` (history in ${file})`;
  }
  expect(failures.map(describeReplayFailure)).toEqual([]);
  expect(listing.failedTasks).toEqual([]);
  if (replayMode() === "no-cache") {
    // The mode reached every worker, in the test processes and the worker processes alike: none had a sticky queue.
    const sticky = listing.replayed.filter((execution) =>
      execution.history.events?.some(
        (event) =>
          event.workflowTaskScheduledEventAttributes?.taskQueue?.kind ===
          TaskQueueKind.TASK_QUEUE_KIND_STICKY,
      ),
    );
    expect(sticky.map((execution) => `${execution.workflowId} (run ${execution.runId})`)).toEqual([]);
  }
}, 1_800_000);
