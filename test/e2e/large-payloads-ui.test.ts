import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { type AgentClient } from "../../src/client.js";
import { defineAgent } from "../../src/define-agent.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { createExternalStorage } from "../../src/storage/payload-storage.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { startTestWorker, connectTestClient } from "../support/temporal.js";
import { findChromium, launchBrowser, saveScreenshot, type HeadlessBrowser } from "../support/browser.js";

const uiUrl = inject("temporalUiUrl");
const namespace = inject("temporalNamespace");
const chromiumPath = findChromium();

// Like temporal-ui.test.ts: outside CI a missing browser or UI skips the suite; in CI a missing browser fails.
const skipReason = !uiUrl
  ? "the suite's Temporal server has no Web UI (an external TEMPORAL_ADDRESS without TEMPORAL_UI_URL)"
  : !chromiumPath && !process.env.CI
    ? "Debian's chromium is not installed (apt-get install -y chromium)"
    : undefined;
if (skipReason) console.warn(`large-payloads-ui.test.ts skipped: ${skipReason}`);

const report = defineTool({
  name: "report",
  description: "returns a 300 KB report",
  schema: z.object({}),
  execute: () => "r".repeat(300_000),
});
const agent = defineAgent({ name: "ui-report", model: "scripted", tools: [report] });
const script = conversationScript([
  toolCallTurn([{ id: "r1", name: "report", input: {} }]),
  textTurn("done"),
]);

describe.skipIf(skipReason !== undefined)(
  "the Temporal UI shows a stored payload's size and reference",
  () => {
    const storage = createExternalStorage({
      kind: "fs",
      dir: mkdtempSync(path.join(tmpdir(), "payloads-ui-")),
      threshold: 128 * 1024,
    });
    const taskQueue = `large-ui-${Math.random().toString(36).slice(2, 10)}`;
    let stopWorker: () => Promise<void>;
    let client: AgentClient;
    let browser: HeadlessBrowser;

    beforeAll(async () => {
      const worker = await startTestWorker({
        agents: [agent],
        providers: { scripted: script },
        taskQueue,
        storage,
      });
      stopWorker = worker.stop;
      client = await connectTestClient(taskQueue, storage);
      browser = await launchBrowser(chromiumPath!);
    });
    afterAll(async () => {
      await browser?.close();
      await client?.close();
      await stopWorker?.();
    });

    it("the event says how large the payload is and that it is stored externally; expanded, it names the blob", async () => {
      const sessionId = `ui-payload-${Math.random().toString(36).slice(2, 10)}`;
      expect((await client.send("ui-report", "report please", { sessionId })).text).toBe("done");
      const { runId } = await client.temporal.workflow.getHandle(sessionId).describe();
      const page = browser.page;
      await page.goto(
        `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${sessionId}/${runId}/history`,
      );
      const stored = page.getByText(/KB payload stored externally/).first();
      await stored.waitFor({ timeout: 20_000 });
      expect(await stored.innerText()).toMatch(/^29\d\.\d\d KB payload stored externally$/);
      // The header sums every stored payload of the run: the tool's result and the next model call's change of the
      // request, which carries that result again (durable-model.ts), so two claim checks of about 293 KB each.
      const header = (await page.locator("body").innerText()).match(
        /External Payloads Size\s+([\d.]+) KB\s+External Payloads\s+(\d+)/,
      );
      expect(header, "the header shows the external payloads' size and count").not.toBeNull();
      expect(Number(header![2])).toBe(2);
      expect(Number(header![1])).toBeGreaterThan(2 * 290);

      await page.getByRole("row").filter({ hasText: "payload stored externally" }).first().click();
      const reference = page.getByText('"driverName": "lite-agent-fs"').first();
      await reference.waitFor({ timeout: 10_000 });
      const body = await page.locator("body").innerText();
      expect(body).toContain(`"key": "default/sessions/${sessionId}/`);
      expect(body).toMatch(/"bytes": "300\d\d\d"/);
      await saveScreenshot(page, "temporal-ui-external-payload");
    }, 90_000);
  },
);
