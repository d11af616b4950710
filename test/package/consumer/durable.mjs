// Consumer of the installed package: a worker and a client on the Temporal server named by TEMPORAL_ADDRESS run
// one durable session, with the scripted model from `lite-agent-temporal/testing`. The worker bundles the
// package's compiled workflows from node_modules. Prints one JSON line for test/package/installed-package.test.ts.
import { defineAgent, defineTool } from "lite-agent-temporal";
import { AgentClient } from "lite-agent-temporal/client";
import { scriptedProvider } from "lite-agent-temporal/testing";
import { createWorker } from "lite-agent-temporal/worker";
import { z } from "zod";

const [taskQueue, sessionId] = process.argv.slice(2);
const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const adder = defineAgent({ name: "adder", model: "scripted", tools: [add] });
const model = scriptedProvider([
  { toolCalls: [{ name: "add", input: { a: 2, b: 3 } }] },
  { text: "2 + 3 = 5" },
]);

const worker = await createWorker({ agents: [adder], providers: { "*": model }, taskQueue });
const running = worker.run();
const client = await AgentClient.connect({ taskQueue });
try {
  const types = [];
  let done;
  for await (const event of client.run("adder", "add 2 and 3", { sessionId })) {
    types.push(event.type);
    if (event.type === "done") done = event;
  }
  const toolResult = done.result.messages
    .flatMap((message) => message.content)
    .find((block) => block.type === "tool_result");
  const { status } = await client.session(sessionId).describe();
  console.log(JSON.stringify({ types, text: done.result.text, reason: done.reason, toolResult, status }));
} finally {
  await client.close();
  worker.shutdown();
  await running;
}
