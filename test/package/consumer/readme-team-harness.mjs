// Runs the README's "Middleware and subagents" sample (house-rules.js and team.mjs, compiled from the README by the
// test) against the installed package, with a scripted OpenAI-compatible server standing in for OpenAI and the
// Temporal server named by TEMPORAL_ADDRESS. Prints one JSON line.
import { startOpenAIServer } from "lite-agent-temporal/testing";

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
process.env.OPENAI_BASE_URL = server.baseURL;
process.env.OPENAI_API_KEY = "test-key";

let printed = "";
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk) => {
  printed += String(chunk);
  return true;
};
await import("./team.mjs");
process.stdout.write = write;

const requests = server.requests
  .filter((request) => request.path.startsWith("/v1/chat/completions"))
  .map((request) => ({
    model: request.body?.model,
    notes: (request.body?.messages ?? []).filter(
      (message) => message.content === "Cite what the researcher found.",
    ).length,
  }));
console.log(`\n${JSON.stringify({ printed, pending: server.pending, requests })}`);
await server.close();
process.exit(0);
