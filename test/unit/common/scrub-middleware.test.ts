import { expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { defineAgent } from "../../../src/define-agent.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { localAgentConfig } from "../../../src/local-agent-config.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";
import { declareSecrets } from "../../../src/wire/scrub-secrets.js";
import { collect } from "../../support/collect.js";

const KEY = "in-process-key-0123456789";
const MCP_TOKEN = "mcp-header-token-abcdef";

it("an in-process run scrubs its model's key and MCP credentials from output, tool inputs and results", async () => {
  const model = declareSecrets(
    fakeProvider([
      toolCallTurn([{ id: "c1", name: "echo", input: { auth: `Bearer ${KEY}` } }], `calling with ${KEY}`),
      textTurn(`done: ${KEY} and a Bearer token`),
    ]),
    [KEY],
  );
  let given = "";
  const echo = defineTool({
    name: "echo",
    description: "echoes",
    schema: z.object({ auth: z.string() }),
    execute: ({ auth }) => {
      given = auth;
      return `got ${auth}, header ${MCP_TOKEN}`;
    },
  });
  const agent = defineAgent({
    name: "local",
    model: "fake",
    tools: [echo],
    // Never reached (no tool of it is called): only its header matters here.
    mcpServers: {
      remote: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
    },
  });
  const config = localAgentConfig(agent, model);
  const { events, result } = await collect(createAgent({ ...config, toolSources: [] }).run("go"));
  const published = JSON.stringify({ events, result });
  expect(published).not.toContain(KEY);
  expect(published).not.toContain(MCP_TOKEN);
  expect(given).toBe("Bearer [redacted]");
  expect(published).toContain("got Bearer [redacted], header [redacted]");
  // Model output is matched by value only: prose about a "Bearer token" stays.
  expect(result.text).toBe("done: [redacted] and a Bearer token");
});
