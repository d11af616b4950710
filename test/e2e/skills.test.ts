import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultPayloadConverter } from "@temporalio/common";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import type { ModelRequest } from "../../src/kernel/vocabulary/model.js";
import { fakeProvider } from "../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { eventsOf, scheduledActivities } from "../replay/history-events.js";
import { runCliInProcess } from "../support/cli-in-process.js";
import {
  connectTestClient,
  startTestWorker,
  temporalAddress,
  uniqueTaskQueue,
  type RunningWorker,
} from "../support/temporal.js";

const fixtures = fileURLToPath(new URL("../fixtures/skills/", import.meta.url));
const dirs = [path.join(fixtures, "base"), path.join(fixtures, "override")];

const analyst = defineAgent({
  name: "analyst",
  model: "scripted",
  system: "You analyse data.",
  skills: { dirs },
});

/** Every tool result block the request's conversation holds. */
function toolResults(request: ModelRequest): { content: unknown; isError?: boolean }[] {
  return request.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((block) => (block.type === "tool_result" ? [block] : []))
      : [],
  );
}

describe("skills in a durable session", () => {
  const taskQueue = uniqueTaskQueue("skills");
  const model = fakeProvider([
    toolCallTurn([{ id: "load-1", name: "load_skill", input: { name: "csv-report" } }]),
    toolCallTurn([{ id: "load-2", name: "load_skill", input: { name: "nope" } }]),
    textTurn("sales.csv: 12 rows"),
  ]);
  let worker: RunningWorker;
  let client: AgentClient;

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, agents: [analyst], providers: { scripted: model } });
    client = await connectTestClient(taskQueue);
  });
  afterAll(async () => {
    await client?.close();
    await worker?.stop();
  });

  it("lists the skills in the system prompt, loads one by activity, and answers an unknown name with the list", async () => {
    const sessionId = `skills-${taskQueue}`;
    const result = await client.send("analyst", "report on sales.csv", { sessionId });
    expect(result.text).toBe("sales.csv: 12 rows");

    expect(model.requests[0]!.system).toBe(
      "You analyse data.\n\nSkills you can use (call load_skill with a skill's name to read its instructions " +
        "before following it):\n- csv-report: Summarise a CSV file (the project's own version)\n" +
        "- greeting: Greet the user by name",
    );
    const [loaded, unknown] = toolResults(model.requests[2]!);
    expect(loaded!.content).toBe(
      '<skill name="csv-report">\nCount the rows and report them in one line: "<file>: <rows> rows".\n</skill>',
    );
    expect(loaded!.isError).toBeFalsy();
    expect(unknown).toMatchObject({
      content: "Error: unknown skill 'nope'. Available skills: csv-report, greeting",
      isError: true,
    });

    // Durable: each load is an executeTool activity, retried as idempotent work; the skill list is in the
    // resolveAgent activity's recorded result, so a replay builds the same prompt.
    const history = await client.temporal.workflow.getHandle(sessionId).fetchHistory();
    const loads = scheduledActivities(history, "executeTool").map(
      (event) => event.activityTaskScheduledEventAttributes!,
    );
    expect(loads).toHaveLength(2);
    for (const load of loads) expect(load.retryPolicy?.maximumAttempts).toBe(5);
    const plans = eventsOf(history).flatMap((event) => {
      const payload = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
      if (!payload) return [];
      const result = defaultPayloadConverter.fromPayload<{ skills?: unknown }>(payload);
      return result && typeof result === "object" && "skills" in result ? [result] : [];
    });
    expect(plans.map((plan) => plan.skills)).toContainEqual([
      { name: "csv-report", description: "Summarise a CSV file (the project's own version)" },
      { name: "greeting", description: "Greet the user by name" },
    ]);
  });
});

describe("a broken skill file in a durable session", () => {
  const taskQueue = uniqueTaskQueue("broken-skills");
  const dir = mkdtempSync(path.join(tmpdir(), "broken-skills-"));
  const broken = path.join(dir, "broken", "SKILL.md");
  const tidier = defineAgent({ name: "tidier", model: "tidy-model", skills: { dirs: [dir] } });
  const plain = defineAgent({ name: "plain", model: "plain-model" });
  const tidyModel = fakeProvider([
    toolCallTurn([{ id: "load-1", name: "load_skill", input: { name: "tidy" } }]),
    textTurn("Tidied."),
  ]);
  let worker: RunningWorker;
  let client: AgentClient;

  beforeAll(async () => {
    mkdirSync(path.dirname(broken), { recursive: true });
    writeFileSync(broken, "---\nname: [unclosed\n---\nNever read.");
    mkdirSync(path.join(dir, "tidy"));
    writeFileSync(path.join(dir, "tidy", "SKILL.md"), "---\ndescription: Tidy the desk\n---\nPut it away.");
    // The worker starts although one of its agents has a broken skill file.
    worker = await startTestWorker({
      taskQueue,
      agents: [tidier, plain],
      providers: { "tidy-model": tidyModel, "plain-model": fakeProvider([textTurn("Hello.")]) },
    });
    client = await connectTestClient(taskQueue);
  });
  afterAll(async () => {
    await client?.close();
    await worker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs with the good skill and names the broken file in the status, the details and show", async () => {
    const sessionId = `broken-skills-${taskQueue}`;
    expect((await client.send("tidier", "tidy up", { sessionId })).text).toBe("Tidied.");
    expect(tidyModel.requests[0]!.system).toMatch(/\n- tidy: Tidy the desk$/);
    const [loaded] = toolResults(tidyModel.requests[1]!);
    expect(loaded).toMatchObject({ content: '<skill name="tidy">\nPut it away.\n</skill>' });
    expect(loaded!.isError).toBeFalsy();
    expect((await client.send("plain", "hi")).text).toBe("Hello.");

    const error = expect.stringMatching(/^its front matter is not valid YAML: /);
    const status = await client.session(sessionId).describe();
    expect(status.skillDiagnostics).toEqual([{ file: broken, error }]);
    const metadata = await client
      .session(sessionId)
      .workflow.query<{ currentDetails?: string }>("__temporal_workflow_metadata");
    expect(metadata.currentDetails).toContain(
      `### Skipped skill files (1)\n- \`${broken}\`: its front matter`,
    );
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_NAMESPACE: inject("temporalNamespace"),
      LITE_AGENT_TASK_QUEUE: taskQueue,
    };
    const show = await runCliInProcess(["show", sessionId], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(
      `Skipped skill files (1):\n  ${broken}: its front matter is not valid YAML`,
    );
    // The run's stream says so too: a diagnostic at its start, from the plan the resolveAgent activity recorded.
    expect(show.stdout).toContain(`warning skill_skipped: skill file ${broken} was skipped:`);
  });
});
