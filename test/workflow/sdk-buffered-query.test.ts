import { fileURLToPath } from "node:url";
import { Context } from "@temporalio/activity";
import { Client, Connection, type WorkflowHandle } from "@temporalio/client";
import { NativeConnection, Worker, bundleWorkflowCode } from "@temporalio/worker";
import { expect, inject, it } from "vitest";
import { quietLogger } from "../../src/worker/workflow-bundle.js";
import { resultsTakenWithNoCommand } from "../support/history-tasks.js";
import { temporalAddress, uniqueTaskQueue } from "../support/temporal.js";

// A minimal reproduction of the SDK defect behind issue 35's stopped sessions (docs/architecture.md, "A defect of the
// SDK"), on a workflow of a few lines (test/fixtures/sdk/rejected-update-race-workflow.ts), kept so an SDK upgrade
// shows whether it still holds. Rejected updates, queries and a workflow task in flight, on a 100 ms sticky queue
// timeout: the SDK's core completes a workflow task that carries an activity's result with no command, and the
// workflow waits for that result for good. Without the rejected updates (the workaround: live output leaves the
// session workflow), the same queries leave every result taken. `npm run bench -- sdk-race` measures more shapes.

const workflowsPath = fileURLToPath(
  new URL("../fixtures/sdk/rejected-update-race-workflow.ts", import.meta.url),
);
const WORKFLOWS = 20;
const STEPS = 40;
const UPDATES_PER_STEP = 5;
const QUERY_MS = 20;
/** A workflow whose history has not grown for this long, short of its end, has stopped. */
const STILL_MS = 10_000;
/** How long workflows that stood still get to finish once the queries stop. */
const SETTLE_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one shape did: workflows that finished, and those with a result taken with no command (by event id). */
interface Outcome {
  finished: number;
  emptyTasks: { workflowId: string; completedEventIds: number[] }[];
}

/**
 * Runs WORKFLOWS workflows of STEPS activities, each activity sending `updates` rejected updates to its workflow
 * (the last one still in flight as it returns), every workflow queried every QUERY_MS. Returns as soon as a history
 * shows a result taken with no command, or once every workflow finished or stood still for STILL_MS.
 */
async function runShape(updates: number): Promise<Outcome> {
  const namespace = inject("temporalNamespace");
  const taskQueue = uniqueTaskQueue("sdk-buffered-query");
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: quietLogger });
  const nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  const connection = await Connection.connect({ address: temporalAddress() });
  const client = new Client({ connection, namespace });
  const sent = new Set<Promise<unknown>>();
  const activities = {
    async emit(step: number): Promise<number> {
      const handle = client.workflow.getHandle(Context.current().info.workflowExecution!.workflowId);
      for (let i = 0; i < updates; i++) {
        const update = handle.executeUpdate("publish", { args: [i] }).catch(() => undefined);
        sent.add(update);
        void update.then(() => sent.delete(update));
        if (i < updates - 1) await update;
      }
      return step;
    },
  };
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace,
    taskQueue,
    activities,
    workflowBundle,
    stickyQueueScheduleToStartTimeout: "100ms",
  });
  const running = worker.run();
  let handles: WorkflowHandle[] = [];
  let querying = true;
  try {
    handles = await Promise.all(
      Array.from({ length: WORKFLOWS }, (_, i) =>
        client.workflow.start("rejectedUpdateRace", {
          taskQueue,
          workflowId: `${taskQueue}-${i}`,
          args: [STEPS],
        }),
      ),
    );
    const queries = handles.map(async (handle) => {
      while (querying) {
        await handle.query("progress").catch(() => undefined);
        await sleep(QUERY_MS);
      }
    });
    const outcome = await watch(handles);
    querying = false;
    await Promise.all(queries);
    // A workflow that stood still without taking a result with no command was only slow (a loaded machine, a query
    // every 20 ms): with the queries stopped, it gets the time to finish.
    if (outcome.emptyTasks.length === 0) outcome.finished = await finishedWithin(handles, SETTLE_MS);
    return outcome;
  } finally {
    querying = false;
    await Promise.all(handles.map((handle) => handle.terminate("test over").catch(() => undefined)));
    await Promise.all(sent);
    worker.shutdown();
    await running;
    await nativeConnection.close();
    await connection.close();
  }
}

/** How many of the workflows finish within `ms`. */
async function finishedWithin(handles: WorkflowHandle[], ms: number): Promise<number> {
  const timeout = sleep(ms).then(() => false);
  const finished = await Promise.all(
    handles.map((handle) =>
      Promise.race([
        handle.result().then(
          () => true,
          () => false,
        ),
        timeout,
      ]),
    ),
  );
  return finished.filter(Boolean).length;
}

/** Polls the workflows' histories every second: see {@link runShape}. */
async function watch(handles: WorkflowHandle[]): Promise<Outcome> {
  const grew = new Map<string, { length: number; at: number }>();
  for (;;) {
    await sleep(1_000);
    let finished = 0;
    let moving = false;
    const emptyTasks: Outcome["emptyTasks"] = [];
    for (const handle of handles) {
      const history = await handle.fetchHistory();
      const events = history.events ?? [];
      const completedEventIds = resultsTakenWithNoCommand(history);
      if (completedEventIds.length > 0) emptyTasks.push({ workflowId: handle.workflowId, completedEventIds });
      if (events.at(-1)?.workflowExecutionCompletedEventAttributes) {
        finished++;
        continue;
      }
      const seen = grew.get(handle.workflowId);
      if (!seen || seen.length !== events.length)
        grew.set(handle.workflowId, { length: events.length, at: Date.now() });
      if (Date.now() - (grew.get(handle.workflowId)?.at ?? 0) < STILL_MS) moving = true;
    }
    if (emptyTasks.length > 0 || !moving) return { finished, emptyTasks };
  }
}

it("SDK: with rejected updates, queries and a 100 ms sticky timeout, a task takes an activity's result with no command", async () => {
  const withUpdates = await runShape(UPDATES_PER_STEP);
  expect(withUpdates.emptyTasks.length, JSON.stringify(withUpdates)).toBeGreaterThan(0);
}, 300_000);

it("SDK: with the same queries and no rejected update, every result is taken and every workflow finishes", async () => {
  const queriesOnly = await runShape(0);
  expect(queriesOnly).toEqual({ finished: WORKFLOWS, emptyTasks: [] });
}, 300_000);
