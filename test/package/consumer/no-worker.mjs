// Consumer of the package installed without @temporalio/worker (an in-process or client-only user): the main entry,
// ./client and ./storage load and the in-process agent runs; ./worker loads, and createWorker fails at once with one
// line naming what to install. Prints one JSON line for test/package/installed-package.test.ts.
import { createAgent, defineAgent, nativeCodec } from "lite-agent-temporal";
import { scriptedProvider } from "lite-agent-temporal/testing";
import { AgentClient } from "lite-agent-temporal/client";
import { FilesystemStorageDriver } from "lite-agent-temporal/storage";
import { createWorker } from "lite-agent-temporal/worker";

let workerPackage = "installed";
try {
  await import("@temporalio/worker");
} catch (error) {
  workerPackage = error.code;
}

const agent = createAgent({ model: scriptedProvider([{ text: "hi" }]), codec: nativeCodec() });
const run = agent.run("hello");
let step = await run.next();
while (!step.done) step = await run.next();

const started = Date.now();
let createWorkerError = "no error";
try {
  await createWorker({
    agents: [defineAgent({ name: "a", model: "m" })],
    providers: { "*": scriptedProvider([]) },
  });
} catch (error) {
  createWorkerError = error.message;
}

console.log(
  JSON.stringify({
    workerPackage,
    inProcess: step.value.text,
    client: typeof AgentClient.connect,
    storage: typeof FilesystemStorageDriver,
    createWorkerError,
    createWorkerMs: Date.now() - started,
  }),
);
