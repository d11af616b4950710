import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import type { AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { HANDLER_DESCRIPTIONS } from "../../src/contract/handler-descriptions.js";
import { findChromium, launchBrowser, saveScreenshot, type HeadlessBrowser } from "../support/browser.js";
import { collect } from "../support/collect.js";
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";

const uiUrl = inject("temporalUiUrl");
const namespace = inject("temporalNamespace");
const chromiumPath = findChromium();

// Outside CI a missing browser or UI skips the suite; in CI a missing browser is a setup error and fails.
const skipReason = !uiUrl
  ? "the suite's Temporal server has no Web UI (an external TEMPORAL_ADDRESS without TEMPORAL_UI_URL)"
  : !chromiumPath && !process.env.CI
    ? "Debian's chromium is not installed (apt-get install -y chromium)"
    : undefined;
if (skipReason) console.warn(`temporal-ui.test.ts skipped: ${skipReason}`);

const refund = defineTool({
  name: "refund",
  description: "refunds an order",
  schema: z.object({ order: z.number() }),
  execute: ({ order }) => `refunded order ${order}`,
});
const agent = defineAgent({
  name: "ui-refunds",
  model: "ui-refunds",
  tools: [refund],
  permission: { ask: ["refund"] },
});
const providers = {
  "ui-refunds": conversationScript([
    toolCallTurn([{ id: "r1", name: "refund", input: { order: 42 } }]),
    textTurn("refund sent"),
  ]),
};

const AWAITING_APPROVAL = 'AgentStatus="awaiting_approval"';

/** The UI's workflow list filtered by a visibility query, as a person would bookmark it. */
function workflowListUrl(query: string): string {
  return `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(query)}`;
}

/**
 * The text of the workflow page's "Current Details" panel (User Metadata tab), once it shows `expected`. The
 * UI renders the markdown in an iframe of its own, so the text is read from that frame.
 */
async function currentDetailsText(page: Page, expected: string): Promise<string> {
  await page.getByTestId("user-metadata-tab").click();
  const details = page.frameLocator("iframe#user-metadata-current-details").locator("body");
  try {
    await details.getByText(expected).first().waitFor({ timeout: 15_000 });
  } catch (error) {
    await saveScreenshot(page, "temporal-ui-failure");
    throw error;
  }
  return details.innerText();
}

/**
 * Opens the UI's workflow list filtered by `query` and returns the workflow ids the UI's backend answered with,
 * which shows the UI applied the query from the URL.
 */
async function openWorkflowList(page: Page, query: string): Promise<string[]> {
  const listed = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return (
      url.pathname === `/api/v1/namespaces/${namespace}/workflows` && url.searchParams.get("query") === query
    );
  });
  await page.goto(workflowListUrl(query));
  const body = (await (await listed).json()) as { executions?: { execution?: { workflowId?: string } }[] };
  return (body.executions ?? []).map((row) => row.execution?.workflowId ?? "");
}

/** Finds the session's row in the list filtered by `query` and opens its workflow page. */
async function openSessionFromList(page: Page, query: string, sessionId: string): Promise<void> {
  expect(await openWorkflowList(page, query)).toContain(sessionId);
  const row = page.getByRole("link", { name: sessionId, exact: true });
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await page.waitForURL((url) => url.pathname.includes(`/workflows/${sessionId}/`));
}

/** Which of `sessionId`'s workflows the visibility store lists as awaiting approval (it lags the workflow). */
async function sessionsAwaitingApproval(client: AgentClient, sessionId: string): Promise<string[]> {
  const found: string[] = [];
  for await (const session of client.list({ query: `${AWAITING_APPROVAL} AND WorkflowId = "${sessionId}"` }))
    found.push(session.sessionId);
  return found;
}

/** Sends a signal through the workflow page's "More Actions → Send a Signal" form. */
async function signalFromUi(page: Page, name: string, input: string): Promise<void> {
  await page.getByRole("button", { name: "More Actions" }).click();
  await page.getByRole("menuitem", { name: "Send a Signal" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByTestId("signal-select-button").click();
  // Each option shows the signal's name and its description (HANDLER_DESCRIPTIONS).
  const option = dialog.getByRole("option", { name: new RegExp(`^${name}\\b`) });
  expect(await option.innerText()).toContain(HANDLER_DESCRIPTIONS[name as keyof typeof HANDLER_DESCRIPTIONS]);
  await option.click();
  // fill() inserts the text at once, so the editor's bracket auto-closing cannot double a brace.
  const editor = dialog.getByRole("textbox", { name: "Data" });
  await editor.fill(input);
  expect(await editor.innerText()).toBe(input);
  await expect.poll(() => dialog.locator('input[value="json/plain"]').isChecked()).toBe(true);
  await dialog.getByTestId("confirm-modal-button").click();
  await dialog.waitFor({ state: "hidden" });
}

describe.skipIf(skipReason !== undefined)("ops from the Temporal UI", () => {
  let worker: RunningWorker;
  let client: AgentClient;
  let browser: HeadlessBrowser | undefined;
  const taskQueue = uniqueTaskQueue("temporal-ui");

  beforeAll(async () => {
    if (!chromiumPath) throw new Error("Debian's chromium is missing: apt-get install -y chromium");
    worker = await startTestWorker({ taskQueue, agents: [agent], providers });
    client = await testClient(taskQueue);
    browser = await launchBrowser(chromiumPath);
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
  });

  it(
    "finds the session awaiting approval, reads its current details and approves it from the signal form",
    { timeout: 60_000 },
    async () => {
      const page = browser!.page;
      const started = await client.start("ui-refunds", "refund order 42");
      const finished = collect(
        client.session(started.sessionId).events(started.runId, { fromOffset: started.offset }),
      );
      // The list is only as current as the visibility store: wait until it indexes the new status.
      await expect
        .poll(() => sessionsAwaitingApproval(client, started.sessionId), { timeout: 15_000 })
        .toEqual([started.sessionId]);

      await openSessionFromList(page, AWAITING_APPROVAL, started.sessionId);

      const waiting = await currentDetailsText(page, "Pending approvals (1)");
      expect(waiting).toContain("awaiting approval");
      expect(waiting).toContain('refund {"order":42}');
      expect(waiting).toContain(
        `temporal workflow signal --workflow-id ${started.sessionId} --name approve --input '{"callId":"r1"}'`,
      );
      await saveScreenshot(page, "temporal-ui-awaiting-approval");

      await signalFromUi(page, "approve", '{"callId":"r1"}');
      const { events, result } = await finished;
      expect(result.text).toBe("refund sent");
      expect(events.find((event) => event.type === "approval_resolved")).toMatchObject({
        id: "r1",
        decision: "allow",
        by: "user",
      });
      expect(events.find((event) => event.type === "tool_result")).toMatchObject({
        result: { content: "refunded order 42" },
      });

      await page.reload();
      const after = await currentDetailsText(page, "1 completed");
      expect(after).toContain("Status idle");
      expect(after).not.toContain("Pending approvals");
      await saveScreenshot(page, "temporal-ui-approved");

      // The filtered list really filters on AgentStatus: the answered session leaves it.
      await expect
        .poll(() => sessionsAwaitingApproval(client, started.sessionId), { timeout: 15_000 })
        .toEqual([]);
      expect(await openWorkflowList(page, AWAITING_APPROVAL)).not.toContain(started.sessionId);
      await expect
        .poll(() => page.getByRole("link", { name: started.sessionId, exact: true }).count())
        .toBe(0);
    },
  );
});
