// `npm run bench -- sdk-race`: a minimal reproduction, on a workflow of a few lines (test/fixtures/sdk/
// rejected-update-race-workflow.ts), of the SDK behaviour behind issue 35's stuck sessions and non-replaying
// histories. Each workflow runs STEPS activities one after another; while each runs, the activity sends UPDATES updates
// to its own workflow, all rejected by the validator (speculative workflow tasks, as live output reached the session
// through `publishDeltas`), and a client queries every workflow every QUERY_MS (as a follower's `readStream`). With both
// and a short sticky queue timeout, the SDK's live worker completes the workflow task that carries an activity's result
// with no command (its core applied a query task's history ahead of the buffered workflow task) and the workflow waits
// for that result forever, until another workflow task (here a `poke` signal) sets it going. It starts its own dev
// server, runs each configuration in turn and writes bench/results/sdk-race.json. It reports; it never fails.
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Context } from "@temporalio/activity";
import { Client, Connection, type WorkflowHandle } from "@temporalio/client";
import proto from "@temporalio/proto";
import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  bundleWorkflowCode,
  makeTelemetryFilterString,
} from "@temporalio/worker";
import { startDevServer } from "../src/dev-server/index.js";
import { findFreePort } from "../src/dev-server/free-port.js";
import { quietLogger } from "../src/worker/workflow-bundle.js";

const EventType = proto.temporal.api.enums.v1.EventType;
const WORKFLOWS = 10;
const STEPS = 30;
/** A workflow whose history has not grown for this long, short of its last step, is stuck. */
const STILL_MS = 15_000;
const workflowsPath = fileURLToPath(
  new URL("../test/fixtures/sdk/rejected-update-race-workflow.ts", import.meta.url),
);

/** What the SDK's core logs when a workflow task's update message is dropped unprocessed. */
const DROPPED_MESSAGES = "unprocessed protocol messages";
const coreErrors = { droppedProtocolMessages: 0 };

interface Configuration {
  name: string;
  updates: number;
  queryMs: number | undefined;
  sticky: string;
}

const CONFIGURATIONS: Configuration[] = [
  { name: "rejected updates + queries, 100 ms sticky", updates: 5, queryMs: 20, sticky: "100ms" },
  { name: "rejected updates only, 100 ms sticky", updates: 5, queryMs: undefined, sticky: "100ms" },
  { name: "queries only, 100 ms sticky", updates: 0, queryMs: 20, sticky: "100ms" },
  { name: "rejected updates + queries, 10 s sticky", updates: 5, queryMs: 20, sticky: "10s" },
];

interface Outcome {
  configuration: string;
  workflows: number;
  activityResults: number;
  /** Workflows whose history stopped growing before their last step. */
  stuck: number;
  /** Workflow tasks completed with no command right after an activity's result (the result never reached the code). */
  emptyTasksAfterResult: number;
  failedWorkflowTasks: number;
  /** Stuck workflows that finished after a `poke` signal (another workflow task on the same worker). */
  finishedAfterPoke: number;
  /** Stuck workflows that finished after a `poke` signal on a new worker (a replay from the history's start). */
  finishedOnNewWorker: number;
  notReplaying: number;
  /** The last events of each stuck workflow, oldest first. */
  stuckTails: string[][];
  /** Times the SDK's core logged "There are unprocessed protocol messages while receiving new work". */
  droppedProtocolMessages: number;
  seconds: number;
  loadAverage: number[];
}

export async function runSdkRaceBench(): Promise<number> {
  Runtime.install({
    logger: new DefaultLogger("WARN", (entry) => {
      if (entry.message.includes(DROPPED_MESSAGES)) coreErrors.droppedProtocolMessages++;
    }),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: "WARN" }), forward: {} } },
  });
  const server = await startDevServer({
    dbFile: join(mkdtempSync(join(tmpdir(), "sdk-race-")), "db"),
    port: await findFreePort(),
    headless: true,
  });
  const outcomes: Outcome[] = [];
  try {
    const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
    const only = process.env.SDK_RACE_CONFIGURATION;
    for (const configuration of CONFIGURATIONS.filter(
      (_, index) => only === undefined || String(index) === only,
    )) {
      outcomes.push(await runConfiguration(server.address, workflowBundle, configuration));
      console.log(JSON.stringify(outcomes.at(-1)));
    }
  } finally {
    await server.stop();
  }
  const path = fileURLToPath(new URL("./results/sdk-race.json", import.meta.url));
  writeFileSync(path, `${JSON.stringify({ sdk: "@temporalio/worker 1.23.0", outcomes }, null, 2)}\n`);
  console.log(`wrote ${path}`);
  return 0;
}

async function runConfiguration(
  address: string,
  workflowBundle: { code: string },
  configuration: Configuration,
): Promise<Outcome> {
  const started = Date.now();
  coreErrors.droppedProtocolMessages = 0;
  const taskQueue = `sdk-race-${started}`;
  const nativeConnection = await NativeConnection.connect({ address });
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const unanswered = new Set<Promise<unknown>>();
  const activities = {
    async emit(step: number): Promise<number> {
      const handle = client.workflow.getHandle(Context.current().info.workflowExecution!.workflowId);
      for (let i = 0; i < configuration.updates; i++) {
        const sent = handle.executeUpdate("publish", { args: [i] }).catch(() => undefined);
        unanswered.add(sent);
        void sent.then(() => unanswered.delete(sent));
        // The last one is not awaited: it is in flight as the activity returns.
        if (i < configuration.updates - 1) await sent;
      }
      return step;
    },
  };
  const workerOptions = {
    connection: nativeConnection,
    taskQueue,
    activities,
    workflowBundle,
    stickyQueueScheduleToStartTimeout: configuration.sticky,
  };
  let worker = await Worker.create(workerOptions);
  let running = worker.run();
  try {
    const handles = await Promise.all(
      Array.from({ length: WORKFLOWS }, (_, i) =>
        client.workflow.start("rejectedUpdateRace", {
          taskQueue,
          workflowId: `${taskQueue}-${i}`,
          args: [STEPS],
        }),
      ),
    );
    let querying = configuration.queryMs !== undefined;
    const queries = handles.map(async (handle) => {
      while (querying) {
        await handle.query("progress").catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, configuration.queryMs));
      }
    });
    const stuck = await stuckWorkflows(handles);
    querying = false;
    await Promise.all(queries);
    const finishedAfterPoke = await pokeAndCount(stuck, 20_000);
    // A worker with an empty cache replays each history from its start.
    worker.shutdown();
    await running;
    worker = await Worker.create(workerOptions);
    running = worker.run();
    const finishedOnNewWorker = await pokeAndCount(stuck, 30_000);
    const stuckTails: string[][] = [];
    let emptyTasksAfterResult = 0;
    let failedWorkflowTasks = 0;
    let notReplaying = 0;
    for (const handle of handles) {
      const history = await handle.fetchHistory();
      const types = (history.events ?? []).map((event) => event.eventType);
      if (stuck.includes(handle))
        stuckTails.push(types.slice(-8).map((type) => EventType[type ?? 0]!.replace("EVENT_TYPE_", "")));
      emptyTasksAfterResult += countEmptyTasksAfterResult(types);
      failedWorkflowTasks += types.filter(
        (type) => type === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
      ).length;
      await Worker.runReplayHistory({ workflowBundle }, history, handle.workflowId).catch(
        () => notReplaying++,
      );
    }
    return {
      configuration: configuration.name,
      workflows: WORKFLOWS,
      activityResults: WORKFLOWS * STEPS,
      stuck: stuck.length,
      emptyTasksAfterResult,
      failedWorkflowTasks,
      finishedAfterPoke,
      finishedOnNewWorker,
      notReplaying,
      stuckTails,
      droppedProtocolMessages: coreErrors.droppedProtocolMessages,
      seconds: Math.round((Date.now() - started) / 1000),
      loadAverage: loadavg().map((load) => Math.round(load * 100) / 100),
    };
  } finally {
    await Promise.all(unanswered);
    worker.shutdown();
    await running;
    await nativeConnection.close();
    await connection.close();
  }
}

/** Waits until every workflow has finished or its history has stood still for STILL_MS; returns the ones that stood. */
async function stuckWorkflows(handles: WorkflowHandle[]): Promise<WorkflowHandle[]> {
  const lengths = new Map<string, { length: number; since: number }>();
  for (;;) {
    const open: WorkflowHandle[] = [];
    let moving = false;
    for (const handle of handles) {
      const description = await handle.describe();
      if (description.status.name !== "RUNNING") continue;
      open.push(handle);
      const length = description.historyLength;
      const seen = lengths.get(handle.workflowId);
      if (!seen || seen.length !== length) {
        lengths.set(handle.workflowId, { length, since: Date.now() });
        moving = true;
      } else if (Date.now() - seen.since < STILL_MS) moving = true;
    }
    if (!moving) return open;
    await delay(1_000);
  }
}

/** Signals each workflow once, then counts those finished within `ms` (described: no long poll outlives the client). */
async function pokeAndCount(handles: WorkflowHandle[], ms: number): Promise<number> {
  const open = [];
  for (const handle of handles) if ((await handle.describe()).status.name === "RUNNING") open.push(handle);
  await Promise.all(open.map((handle) => handle.signal("poke")));
  await delay(ms);
  let finished = 0;
  for (const handle of open) if ((await handle.describe()).status.name !== "RUNNING") finished++;
  return finished;
}

/**
 * Activity completed, then a workflow task scheduled, started and completed, then no command (the workflow's only
 * commands after a result are the next activity or its completion).
 */
function countEmptyTasksAfterResult(types: (number | null | undefined)[]): number {
  const commands = new Set<number>([
    EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
  ]);
  let count = 0;
  for (let i = 0; i + 3 < types.length; i++) {
    if (
      types[i] === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED &&
      types[i + 1] === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED &&
      types[i + 2] === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED &&
      types[i + 3] === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED &&
      !commands.has(types[i + 4] ?? 0)
    )
      count++;
  }
  return count;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
