import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { NativeConnection } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentClient } from "../../src/client.js";
import { startCodecServer, type RunningCodecServer } from "../../src/codec-server/index.js";
import { defineAgent } from "../../src/define-agent.js";
import { startDevServer, type DevServer } from "../../src/dev-server/index.js";
import { findFreePort } from "../../src/dev-server/free-port.js";
import { AesGcmPayloadCodec, createKeyRing } from "../../src/encryption/index.js";
import { defineTool } from "../../src/kernel/vocabulary/tools.js";
import { textTurn, toolCallTurn } from "../../src/testing/builders.js";
import { conversationScript } from "../../src/testing/conversation-script.js";
import { createWorker, type AgentWorker } from "../../src/worker.js";
import { findChromium, launchBrowser, saveScreenshot, type HeadlessBrowser } from "../support/browser.js";

const run = promisify(execFile);
const chromiumPath = findChromium();
// Like temporal-ui.test.ts: outside CI a missing browser skips the suite; in CI it fails.
const skipReason =
  !chromiumPath && !process.env.CI
    ? "Debian's chromium is not installed (apt-get install -y chromium)"
    : undefined;
if (skipReason) console.warn(`codec-server-ui.test.ts skipped: ${skipReason}`);

const MARKER = `ledger-entry-${randomBytes(5).toString("hex")}`;
const ledger = defineTool({
  name: "ledger",
  description: "reads the customer's ledger",
  schema: z.object({ customer: z.number() }),
  execute: ({ customer }) => `customer ${customer}: ${MARKER}`,
});
const agent = defineAgent({ name: "codec-ledger", model: "scripted", tools: [ledger] });
const script = conversationScript([
  toolCallTurn([{ id: "l1", name: "ledger", input: { customer: 7 } }]),
  textTurn("read it"),
]);

/** Every string in a JSON value and, where it is base64, its decoded text too. */
function readableTexts(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") {
    into.push(value);
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0)
      into.push(Buffer.from(value, "base64").toString("latin1"));
  } else if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) readableTexts(child, into);
  }
  return into;
}

/**
 * A dev server whose UI decodes through a codec server. The UI's port is picked before either starts (the codec
 * server allows that origin only, and the dev server's own retry covers only ports it picked), so a port another
 * process binds in between (CI runs many servers at once) is picked again.
 */
async function startUiWithCodec(
  payloadCodec: AesGcmPayloadCodec,
): Promise<{ codec: RunningCodecServer; server: DevServer }> {
  for (let attempt = 1; ; attempt++) {
    const uiPort = await findFreePort();
    const codec = await startCodecServer({
      codec: payloadCodec,
      origins: [`http://127.0.0.1:${uiPort}`, `http://localhost:${uiPort}`],
      // Local dev use: the dev server's UI signs no one in, so it has no token to forward.
      insecureNoToken: true,
    });
    try {
      const server = await startDevServer({ uiPort, uiCodecEndpoint: codec.url, logLevel: "error" });
      return { codec, server };
    } catch (error) {
      await codec.close();
      if (attempt >= 3 || !/address already in use/i.test(String(error))) throw error;
    }
  }
}

/**
 * The Temporal UI decrypts an encrypted session through `lite-agent codec-server`: a dev server of its own, started
 * with `--ui-codec-endpoint`, a worker and client with the AES-GCM key, and the codec server allowing that UI's
 * origin. The raw history, read with the Temporal CLI, shows none of it.
 */
describe.skipIf(skipReason !== undefined)(
  "the Temporal UI shows an encrypted session through the codec server",
  () => {
    const keys = createKeyRing([["k1", new Uint8Array(randomBytes(32))]], "k1");
    const taskQueue = `codec-ui-${randomBytes(4).toString("hex")}`;
    let codec: RunningCodecServer;
    let server: DevServer;
    let connection: NativeConnection;
    let worker: AgentWorker;
    let running: Promise<void>;
    let client: AgentClient;
    let browser: HeadlessBrowser;

    beforeAll(async () => {
      if (!chromiumPath) throw new Error("Debian's chromium is missing: apt-get install -y chromium");
      ({ codec, server } = await startUiWithCodec(new AesGcmPayloadCodec(keys)));
      if (!server.uiUrl) throw new Error(`the Temporal binary ${server.binary.path} has no Web UI`);
      connection = await NativeConnection.connect({ address: server.address });
      worker = await createWorker({
        agents: [agent],
        providers: { scripted: script },
        taskQueue,
        connection,
        namespace: server.namespace,
        storage: false,
        encryption: keys,
      });
      running = worker.run();
      client = await AgentClient.connect({
        address: server.address,
        namespace: server.namespace,
        taskQueue,
        storage: false,
        encryption: keys,
      });
      browser = await launchBrowser(chromiumPath);
    });
    afterAll(async () => {
      await browser?.close();
      await client?.close();
      if (worker?.getState() === "RUNNING") worker.shutdown();
      await running;
      await connection?.close();
      await server?.stop();
      await codec?.close();
    });

    it("the raw history holds no plain text of the tool result; through the codec server the CLI and the UI show it", async () => {
      const sessionId = `codec-ui-${randomBytes(4).toString("hex")}`;
      expect((await client.send("codec-ledger", "read customer 7's ledger", { sessionId })).text).toBe(
        "read it",
      );

      const cli = server.binary.path;
      const show = ["workflow", "show", "--address", server.address, "--namespace", server.namespace];
      const raw = await run(cli, [...show, "--workflow-id", sessionId, "--output", "json"]);
      const rawTexts = readableTexts(JSON.parse(raw.stdout));
      expect(rawTexts.some((text) => text.includes("executeTool"))).toBe(true); // the right history
      expect(rawTexts.filter((text) => text.includes(MARKER))).toEqual([]);
      expect(rawTexts.some((text) => text.includes("binary/encrypted"))).toBe(true);
      // The Temporal CLI, pointed at the codec server, reads the tool result.
      const decoded = await run(cli, [
        ...show,
        "--workflow-id",
        sessionId,
        "--output",
        "json",
        "--codec-endpoint",
        codec.url,
      ]);
      expect(readableTexts(JSON.parse(decoded.stdout)).some((text) => text.includes(MARKER))).toBe(true);

      const { runId } = await client.temporal.workflow.getHandle(sessionId).describe();
      const page = browser.page;
      const decodeCalls: number[] = [];
      page.on("response", (response) => {
        if (response.url().startsWith(`${codec.url}/decode`)) decodeCalls.push(response.status());
      });
      await page.goto(
        `${server.uiUrl}/namespaces/${encodeURIComponent(server.namespace)}/workflows/${sessionId}/${runId}/history`,
      );
      try {
        // The tool activity's row previews its decrypted result; expanded, it shows the whole of it.
        const toolRow = page
          .getByRole("row")
          .filter({ hasText: "Activity Task Completed" })
          .filter({ hasText: MARKER });
        await toolRow.first().waitFor({ timeout: 20_000 });
        await toolRow.first().click();
        const expanded = page.getByText(`"content": "customer 7: ${MARKER}"`).first();
        await expanded.waitFor({ timeout: 10_000 });
        await expanded.scrollIntoViewIfNeeded();
      } finally {
        await saveScreenshot(page, "codec-server-ui-decoded-tool-result");
      }
      expect(decodeCalls.length).toBeGreaterThan(0);
      expect(decodeCalls.every((status) => status === 200)).toBe(true);
    }, 120_000);
  },
);
