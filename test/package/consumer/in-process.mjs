// Consumer of the installed package: the in-process agent (the seed's createAgent) with the scripted model that
// `lite-agent-temporal/testing` exports, and a tool. Prints one JSON line for test/package/installed-package.test.ts.
import { createAgent, defineTool, nativeCodec } from "lite-agent-temporal";
import { scriptedProvider } from "lite-agent-temporal/testing";
import { z } from "zod";

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  schema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const agent = createAgent({
  model: scriptedProvider([{ toolCalls: [{ name: "add", input: { a: 2, b: 3 } }] }, { text: "2 + 3 = 5" }]),
  codec: nativeCodec(),
  tools: [add],
});

const types = [];
let text = "";
const run = agent.run("add 2 and 3");
let step = await run.next();
while (!step.done) {
  types.push(step.value.type);
  if (step.value.type === "text_delta") text += step.value.text;
  step = await run.next();
}
console.log(JSON.stringify({ types, text, stopReason: step.value.stopReason, result: step.value.text }));
