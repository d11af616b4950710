// Runs the MCP tools guide's sample (notes.mjs, compiled from docs/guides/mcp-tools.md by the test) against the installed
// package, in a project that also has @modelcontextprotocol/server-filesystem installed (so `npx` starts it without
// the network): a scripted OpenAI-compatible server stands in for OpenAI, the Temporal server is TEMPORAL_ADDRESS.
// Prints one JSON line.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startOpenAIServer } from "lite-agent-temporal/testing";
import { chatRequests, runSample } from "./run-sample.mjs";

writeFileSync(join(process.cwd(), "notes.txt"), "Buy milk. Call Ada.");
const list = { toolCalls: [{ name: "fs__list_directory", arguments: { path: process.cwd() } }] };
const listed = { text: "notes.txt and a few more." };
const read = {
  toolCalls: [{ name: "fs__read_text_file", arguments: { path: join(process.cwd(), "notes.txt") } }],
};
const summed = { text: "Milk, and a call to Ada." };
// The in-process run lists the folder, the durable run reads the notes.
const server = await startOpenAIServer({ responses: [list, listed, read, summed] });
const printed = await runSample(server, "./notes.mjs");

const requests = chatRequests(server);
const toolNames = (requests[0]?.body?.tools ?? []).map((tool) => tool.function?.name);
const toolResults = requests.map((request) =>
  (request.body?.messages ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => message.content),
);
console.log(`\n${JSON.stringify({ printed, pending: server.pending, toolNames, toolResults })}`);
await server.close();
process.exit(0);
