// Runs the README's "Use it" sample (readme-sample.mjs, compiled from the README by the test) against the installed
// package: a scripted OpenAI-compatible server from `lite-agent-temporal/testing` stands in for OpenAI, and the
// sample's worker and client use the Temporal server named by TEMPORAL_ADDRESS. Prints one JSON line.
import { startOpenAIServer } from "lite-agent-temporal/testing";
import { chatRequests, runSample } from "./run-sample.mjs";

const askOrder = { toolCalls: [{ name: "ask_user", arguments: { question: "Which order?" } }] };
const refund = { toolCalls: [{ name: "refund", arguments: { order: 42 } }] };
const done = { text: "Order 42 is refunded." };
// In-process send (question answered and refund approved by the handlers), then the durable run (by the client).
const server = await startOpenAIServer({ responses: [askOrder, refund, done, askOrder, refund, done] });
const printed = await runSample(server, "./readme-sample.mjs");

// What each model request carried back as tool results (each request repeats its run's earlier ones).
const toolResults = chatRequests(server).map((request) =>
  (request.body?.messages ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => message.content),
);
console.log(`\n${JSON.stringify({ printed, pending: server.pending, toolResults })}`);
await server.close();
// The sample leaves its worker running (`void worker.run()`), as a service would.
process.exit(0);
