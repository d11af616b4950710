import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import { afterAll, describe, expect, inject, it } from "vitest";
import { startOpenAIServer, type OpenAIServer } from "../../src/testing/openai-server.js";
import { forcedReplayEnv } from "../support/forced-replay.mjs";

const projectDir = path.resolve(import.meta.dirname, "..", "..");
const seedCsv = path.join(projectDir, "src", "demo", "sandbox-seed", "sales.csv");
const RUN_TIMEOUT_MS = 120_000;

/**
 * The arguments to node of what `npm start` runs: tsx as a loader, not the `tsx` command, whose signal relay
 * kills a child that takes over 60 ms to answer a Ctrl-C (which a loaded machine does).
 */
function demoArgs(...args: string[]): string[] {
  return ["--import", "tsx", "src/demo/main.ts", ...args];
}

const cacheDirs: string[] = [];
afterAll(() => {
  for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh cache folder, so the demo never touches the developer's `.cache`. */
function tempCacheDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "demo-e2e-"));
  cacheDirs.push(dir);
  return dir;
}

/**
 * The environment of a demo process: no OpenAI or Temporal settings from the outside (the suite sets
 * TEMPORAL_ADDRESS for its workers), no colours, no test-runner loader; then the test's own settings.
 */
function demoEnv(cacheDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      !/^(OPENAI_|TEMPORAL_ADDRESS|TEMPORAL_NAMESPACE|TEMPORAL_UI_URL|DEMO_|NODE_OPTIONS|FORCE_COLOR)/.test(
        key,
      )
    )
      env[key] = value;
  }
  return { ...env, NO_COLOR: "1", DEMO_CACHE_DIR: cacheDir, ...forcedReplayEnv(), ...extra };
}

/** A demo child process: its output so far, a way to wait for a line, and its exit. */
interface DemoProcess {
  pid: number;
  output(): string;
  stderr(): string;
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `command args` in its own process group (as a terminal would run it), in the project folder. */
function startDemo(command: string, args: string[], env: NodeJS.ProcessEnv): DemoProcess {
  const child = spawn(command, args, {
    cwd: projectDir,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: Array<() => void> = [];
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = async (pattern: RegExp): Promise<RegExpMatchArray> => {
    for (;;) {
      const match = stdout.match(pattern);
      if (match) return match;
      const ended = await Promise.race([
        exited.then(() => true),
        new Promise<false>((wake) => waiters.push(() => wake(false))),
      ]);
      if (ended && !stdout.match(pattern))
        throw new Error(`demo exited before printing ${pattern}:\n${stdout}\n${stderr}`);
    }
  };
  return { pid: child.pid!, output: () => stdout, stderr: () => stderr, waitFor, exited };
}

/** Runs a demo to its end. */
async function runDemo(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const demo = startDemo(command, args, env);
  const { code } = await demo.exited;
  return { code, stdout: demo.output(), stderr: demo.stderr() };
}

/** Processes whose command line mentions `text` (the temp cache folder names the server's DB file). */
function processesMentioning(text: string): string[] {
  const table = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return table.split("\n").filter((line) => line.includes(text) && !line.includes("ps -eo"));
}

/** True while any process of the group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
}

/** The lines the scripted answer must hold, computed here from the CSV with plain code. */
function expectedAnswer(csv: string): string[] {
  const [header, ...rows] = csv
    .trim()
    .split("\n")
    .map((line) => line.split(","));
  const col = (name: string) => header!.indexOf(name);
  const units = rows.map((row) => Number(row[col("units")]));
  const revenue = rows.map((row) => Number(row[col("revenue")]));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const byRegion = new Map<string, number>();
  rows.forEach((row, i) =>
    byRegion.set(row[col("region")]!, (byRegion.get(row[col("region")]!) ?? 0) + revenue[i]!),
  );
  const [topRegion, topRevenue] = [...byRegion].sort((a, b) => b[1] - a[1])[0]!;
  const [u, r] = [sum(units), sum(revenue)];
  return [
    `has ${rows.length} rows with the columns ${header!.join(", ")}.`,
    `- Total units: ${u} (mean ${formatNumber(u / rows.length)} per row, from ${Math.min(...units)} to ${Math.max(...units)}).`,
    `- Total revenue: ${formatNumber(r)} (mean ${formatNumber(r / rows.length)} per row, from ${formatNumber(Math.min(...revenue))} to ${formatNumber(Math.max(...revenue))}).`,
    `- Average revenue per unit: ${formatNumber(r / u)} (${formatNumber(r)} / ${u}).`,
    `- By region, revenue is highest for ${topRegion}: ${formatNumber(topRevenue)} of ${formatNumber(r)} (${formatNumber(Number(((topRevenue / r) * 100).toFixed(1)))}%).`,
  ];
}

/** The names of the tools called, in the order the demo printed them. */
function toolCalls(stdout: string): string[] {
  return [...stdout.matchAll(/^ {2}→ (\w+) /gm)].map((match) => match[1]!);
}

const SCRIPTED_CALLS = [
  "list_files",
  "read_file",
  "read_file",
  "column_stats",
  "column_stats",
  "calculate",
  "calculate",
  "save_report",
];

describe("npm start (the demo)", () => {
  it(
    "runs on the server in TEMPORAL_ADDRESS, computes its answer from the sandbox files, and closes the session",
    async () => {
      const cacheDir = tempCacheDir();
      // The user's own data: the answer must follow it, so nothing in it can be hard-coded.
      const csv =
        "month,region,product,units,revenue\n2025-01,East,Tea,7,70.5\n2025-01,West,Tea,3,30\n2025-02,East,Cake,10,25.25\n";
      mkdirSync(path.join(cacheDir, "demo", "sandbox"), { recursive: true });
      writeFileSync(path.join(cacheDir, "demo", "sandbox", "sales.csv"), csv);
      const address = inject("temporalAddress");
      const namespace = inject("temporalNamespace");
      const env = demoEnv(cacheDir, {
        TEMPORAL_ADDRESS: address,
        TEMPORAL_NAMESPACE: namespace,
        TEMPORAL_UI_URL: "http://ui.test:8233",
      });

      const { code, stdout, stderr } = await runDemo(
        "npm",
        ["start", "--", "--yes", "Summarise the sales."],
        env,
      );

      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stdout).toContain(
        "no OpenAI key is configured (OPENAI_API_KEY / OPENAI_BASE_URL unset), so the scripted demo model is used",
      );
      expect(stdout).toContain(`Using the Temporal server at ${address} (TEMPORAL_ADDRESS)`);
      expect(stdout).not.toContain("Starting the embedded Temporal dev server");
      expect(stdout).toContain("Prompt: Summarise the sales.");
      expect(toolCalls(stdout)).toEqual(SCRIPTED_CALLS);
      for (const line of expectedAnswer(csv)) expect(stdout).toContain(line);
      const link = stdout.match(
        /^Temporal UI: http:\/\/ui\.test:8233\/namespaces\/default\/workflows\/(demo-[0-9a-f]{8})$/m,
      );
      expect(link).not.toBeNull();
      expect(stdout).toContain(`Session: ${link![1]}`);
      // The link shows while the run works, not only after it.
      expect(stdout.indexOf(link![0])).toBeLessThan(stdout.indexOf("── turn 1 ──"));
      expect(stdout).toMatch(/── done: stop · 6 turns · 8 tool calls · tokens \d+ in \/ \d+ out ──/);
      // The write waited for an approval; --yes gave it, recorded under the user's name, and the file holds the figures.
      expect(stdout).toContain("? save_report waits for approval");
      expect(stdout).toMatch(/✓ approved by \S+/);
      expect(stdout).toContain("Saved to report.md.");
      const report = readFileSync(path.join(cacheDir, "demo", "sandbox", "report.md"), "utf8");
      for (const line of expectedAnswer(csv)) expect(report).toContain(line);

      // The run really was durable on that server: one activity per model call and per tool call, session closed.
      const client = new Client({ connection: await Connection.connect({ address }), namespace });
      const handle = client.workflow.getHandle(link![1]!);
      expect((await handle.describe()).status.name).toBe("COMPLETED");
      const scheduled = (await handle.fetchHistory()).events?.flatMap(
        (event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
      );
      expect(scheduled?.filter((name) => name === "callModel")).toHaveLength(6);
      expect(scheduled?.filter((name) => name === "executeTool")).toHaveLength(8);
      await client.connection.close();
      expect(processesMentioning(cacheDir)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "without TEMPORAL_ADDRESS starts its own dev server with a file DB in the cache folder, and leaves no server behind",
    async () => {
      const cacheDir = tempCacheDir();
      const { code, stdout, stderr } = await runDemo(process.execPath, demoArgs(), demoEnv(cacheDir, {}));

      expect(code, `${stdout}\n${stderr}`).toBe(0);
      // Nothing (a timer, a connection) may keep the process alive after a clean shutdown.
      expect(stderr).not.toContain("held the event loop");
      expect(stdout).toContain("so the scripted demo model is used");
      expect(stdout).toContain(
        `Starting the embedded Temporal dev server (state in ${path.join(cacheDir, "temporal", "demo.db")})`,
      );
      expect(existsSync(path.join(cacheDir, "temporal", "demo.db"))).toBe(true);
      expect(readFileSync(path.join(cacheDir, "demo", "sandbox", "sales.csv"), "utf8")).toBe(
        readFileSync(seedCsv, "utf8"),
      );
      expect(toolCalls(stdout)).toEqual(SCRIPTED_CALLS);
      for (const line of expectedAnswer(readFileSync(seedCsv, "utf8"))) expect(stdout).toContain(line);
      expect(stdout).toMatch(
        /^Temporal UI: http:\/\/127\.0\.0\.1:\d+\/namespaces\/default\/workflows\/demo-[0-9a-f]{8}$/m,
      );
      // No terminal to ask and no --yes: the write is declined, nothing is written, and the demo says how to approve.
      expect(stdout).toContain(
        "No terminal to ask for approvals: the report write is declined (--yes approves it).",
      );
      expect(stdout).toMatch(/✗ denied/);
      expect(stdout).toMatch(/Nothing was written \(.*denied.*\)\./);
      expect(existsSync(path.join(cacheDir, "demo", "sandbox", "report.md"))).toBe(false);
      expect(stdout).toContain("The embedded server stops now, and the link with it: run with --keep");

      const pid = Number(stdout.match(/Temporal dev server started: pid (\d+)/)?.[1]);
      expect(stdout).toContain(`Temporal dev server stopped (pid ${pid}).`);
      expect(groupAlive(pid)).toBe(false);
      expect(processesMentioning(cacheDir)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "with --keep serves the session's page in the Temporal UI until Ctrl-C, then shuts down cleanly",
    async () => {
      const cacheDir = tempCacheDir();
      const demo = startDemo(process.execPath, demoArgs("--keep"), demoEnv(cacheDir, {}));
      try {
        await demo.waitFor(/Press Ctrl-C to stop\./);
        const link = demo.output().match(/^Temporal UI: (http:\S+)$/m)![1]!;
        const page = await fetch(link);
        expect(page.status).toBe(200);
        expect(await page.text()).toMatch(/<html/i);
        // A terminal's Ctrl-C signals the whole foreground group.
        process.kill(-demo.pid, "SIGINT");
        const { code } = await demo.exited;
        expect(code, demo.output() + demo.stderr()).toBe(0);
      } finally {
        if (groupAlive(demo.pid)) process.kill(-demo.pid, "SIGKILL");
      }
      const pid = Number(demo.output().match(/Temporal dev server started: pid (\d+)/)?.[1]);
      expect(demo.output()).toContain("SIGINT: shutting down cleanly");
      expect(demo.output()).not.toContain("quitting now");
      expect(demo.output()).toContain(`Temporal dev server stopped (pid ${pid}).`);
      expect(groupAlive(pid)).toBe(false);
      expect(processesMentioning(cacheDir)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  describe("with OPENAI_BASE_URL set", () => {
    let server: OpenAIServer | undefined;
    afterAll(async () => server?.close());

    it(
      "runs on the OpenAI provider with the model from OPENAI_MODEL, through the real client over HTTP",
      async () => {
        server = await startOpenAIServer({
          responses: [
            { toolCalls: [{ id: "call_1", name: "list_files", arguments: { path: "." } }] },
            { text: "The sandbox holds three entries." },
          ],
        });
        const cacheDir = tempCacheDir();
        const env = demoEnv(cacheDir, {
          OPENAI_BASE_URL: server.baseURL,
          OPENAI_MODEL: "local-model",
          TEMPORAL_ADDRESS: inject("temporalAddress"),
          TEMPORAL_NAMESPACE: inject("temporalNamespace"),
        });
        const { code, stdout, stderr } = await runDemo(
          process.execPath,
          demoArgs("What is in the sandbox?"),
          env,
        );

        expect(code, `${stdout}\n${stderr}`).toBe(0);
        expect(stdout).toContain(`Model: local-model through the OpenAI provider at ${server.baseURL}.`);
        expect(stdout).not.toContain("scripted demo model");
        expect(toolCalls(stdout)).toEqual(["list_files"]);
        expect(stdout).toMatch(
          /← list_files: notes\/ ⏎ README\.txt \(\d+ bytes\) ⏎ sales\.csv \(\d+ bytes\)/,
        );
        expect(stdout).toContain("The sandbox holds three entries.");
        const chats = server.requests.filter((request) => request.path.startsWith("/v1/chat/completions"));
        expect(chats).toHaveLength(2);
        const first = chats[0]!.body as {
          model: string;
          tools: Array<{ function: { name: string } }>;
          messages: Array<{ content: unknown }>;
        };
        expect(first.model).toBe("local-model");
        // Sorted by name, as the Go seed sends them (a stable prefix for the provider's prompt cache).
        expect(first.tools.map((tool) => tool.function.name)).toEqual([
          "calculate",
          "column_stats",
          "list_files",
          "read_file",
          "save_report",
        ]);
        expect(JSON.stringify(first.messages)).toContain("What is in the sandbox?");
        expect(JSON.stringify(chats[1]!.body)).toContain("sales.csv (");
      },
      RUN_TIMEOUT_MS,
    );
  });
});
