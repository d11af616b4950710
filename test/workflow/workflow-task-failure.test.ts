import { fileURLToPath } from "node:url";
import { Client, Connection } from "@temporalio/client";
import { NativeConnection, Worker, bundleWorkflowCode } from "@temporalio/worker";
import { afterAll, expect, inject, it } from "vitest";
import { SessionError, toSessionError } from "../../src/client/client-errors.js";
import { WorkflowTaskFailingError, queryWithRetry } from "../../src/runtime/query-with-retry.js";
import { quietLogger } from "../../src/worker/workflow-bundle.js";
import { workflowTaskFailure } from "../../src/runtime/workflow-task-failure.js";
import { temporalAddress, uniqueTaskQueue } from "../support/temporal.js";

const workflowsPath = fileURLToPath(new URL("../fixtures/sdk/failing-task-workflow.ts", import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

it("a workflow whose task fails for good: a query says why at once, not after the retry patience", async () => {
  const namespace = inject("temporalNamespace");
  const taskQueue = uniqueTaskQueue("task-failure");
  const nativeConnection = await NativeConnection.connect({ address: temporalAddress() });
  const connection = await Connection.connect({ address: temporalAddress() });
  closing.push(
    () => nativeConnection.close(),
    () => connection.close(),
  );
  const client = new Client({ connection, namespace });
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath, logger: quietLogger }),
  });
  const running = worker.run();
  closing.push(async () => (worker.shutdown(), await running));
  const handle = await client.workflow.start("failingTask", { taskQueue, workflowId: taskQueue });
  closing.push(() => handle.terminate("test over").then(() => undefined));

  // From its third attempt on, the server refuses queries to the workflow: the state this test is about.
  for (let attempt = 0; attempt < 3;) {
    await sleep(200);
    attempt = (await handle.describe()).raw.pendingWorkflowTask?.attempt ?? 0;
  }
  expect(await workflowTaskFailure(handle)).toMatch(/broken workflow code/);

  const asked = Date.now();
  const failure = await queryWithRetry(
    () => handle.query<string>("status"),
    () => workflowTaskFailure(handle),
  ).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(WorkflowTaskFailingError);
  expect((failure as Error).message).toMatch(/^its workflow task fails: .*broken workflow code/);
  expect(Date.now() - asked).toBeLessThan(15_000); // the patience is 20 s; one answer takes well under 1 s
  const sessionError = toSessionError(failure, taskQueue, "describe");
  expect(sessionError).toBeInstanceOf(SessionError);
  expect(sessionError.message).toMatch(
    new RegExp(`^describe: session '${taskQueue}' cannot answer: its workflow`),
  );
}, 120_000);
