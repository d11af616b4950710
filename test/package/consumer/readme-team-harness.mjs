// Runs the middleware and subagents guide's sample (house-rules.js and team.mjs, compiled from the guide by the
// test) against the installed package, with a scripted OpenAI-compatible server standing in for OpenAI and the
// Temporal server named by TEMPORAL_ADDRESS. Prints one JSON line.
import { startOpenAIServer } from "lite-agent-temporal/testing";
import { chatRequests, runSample } from "./run-sample.mjs";

const delegate = {
  toolCalls: [
    {
      name: "Agent",
      arguments: {
        tasks: [
          {
            display_name: "docs",
            subagent_type: "researcher",
            prompt: "Find what the docs say about retries.",
          },
        ],
      },
    },
  ],
};
const search = { toolCalls: [{ name: "search", arguments: { query: "retries" } }] };
const found = { text: "The docs say retries back off." };
const answer = { text: "Retries back off, says the researcher." };
// The lead delegates, the researcher (a child session) searches and answers, then the lead answers.
const server = await startOpenAIServer({ responses: [delegate, search, found, answer] });
const printed = await runSample(server, "./team.mjs");

const requests = chatRequests(server).map((request) => ({
  model: request.body?.model,
  notes: (request.body?.messages ?? []).filter(
    (message) => message.content === "Cite what the researcher found.",
  ).length,
}));
console.log(`\n${JSON.stringify({ printed, pending: server.pending, requests })}`);
await server.close();
process.exit(0);
