import { ApplicationFailure } from "@temporalio/common";
import { expect, it } from "vitest";
import type { AgentActivities } from "../../../src/contract/activity-types.js";
import { scrubbedActivities } from "../../../src/activities/scrubbed-activities.js";
import { mcpServerSecrets } from "../../../src/wire/known-secrets.js";
import { REDACTED, SecretScrubber } from "../../../src/wire/scrub-secrets.js";

const SECRET = "worker-secret-0123456789";

it("MCP headers and environments are secrets, and so is a header's credential alone", () => {
  const secrets = mcpServerSecrets([
    {
      url: "https://mcp.example.test/mcp",
      headers: { Authorization: "Bearer mcp-token-abcdef", "X-Key": "xk-12345678" },
    },
    { command: "server", env: { GITHUB_TOKEN: "ghp_0123456789" } },
    { command: "plain" },
  ]);
  expect(secrets).toEqual(["Bearer mcp-token-abcdef", "mcp-token-abcdef", "xk-12345678", "ghp_0123456789"]);
});

it("every activity's result is scrubbed by value and its failure whole", async () => {
  const scrubber = new SecretScrubber([SECRET]);
  const activities = {
    callModel: async () => ({ message: { role: "assistant", content: `a Bearer token: ${SECRET}` } }),
    executeTool: async () => {
      throw ApplicationFailure.retryable(`failed with ${SECRET} and Bearer abcdefgh`, "Boom");
    },
  } as unknown as AgentActivities;
  const scrubbed = scrubbedActivities(activities, scrubber);
  expect(Object.keys(scrubbed)).toEqual(["callModel", "executeTool"]);
  await expect(scrubbed.callModel({} as never)).resolves.toEqual({
    message: { role: "assistant", content: `a Bearer token: ${REDACTED}` },
  });
  const failure = await scrubbed.executeTool({} as never).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ApplicationFailure);
  expect((failure as Error).message).toBe(`failed with ${REDACTED} and Bearer ${REDACTED}`);
});
