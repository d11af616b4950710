import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findFreePort } from "../../src/dev-server/free-port.js";
import agentsModule, { pauseWaiting, resumePause } from "./fixtures/cli-agents.js";
import { startTestWorker, uniqueTaskQueue, type RunningWorker } from "../support/temporal.js";
import { forcedReplayEnv } from "../support/forced-replay.mjs";

const projectDir = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(projectDir, "bin", "lite-agent.js");
const fixture = path.join("test", "e2e", "fixtures", "cli-agents.ts");
const taskQueue = uniqueTaskQueue("cli");
const hasScript = spawnSync("script", ["--version"]).status === 0;

/** A session id no other test (or earlier suite run) uses. */
const sessionId = (name: string) => `cli-${name}-${randomUUID().slice(0, 8)}`;

/**
 * The environment of a CLI process: the suite's server and this file's task queue, no colours, no settings
 * from outside that would change what the CLI does (OpenAI keys, loaders, colours).
 */
function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(OPENAI_|LITE_AGENT_|TEMPORAL_|NODE_OPTIONS|FORCE_COLOR)/.test(key)) env[key] = value;
  }
  const all: Record<string, string | undefined> = {
    ...env,
    NO_COLOR: "1",
    TEMPORAL_ADDRESS: inject("temporalAddress"),
    TEMPORAL_NAMESPACE: inject("temporalNamespace"),
    LITE_AGENT_TASK_QUEUE: taskQueue,
    LITE_AGENT_ACTOR: "tester",
    ...forcedReplayEnv(),
    ...extra,
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

/** A CLI child process: its output so far, waiting for some output, its exit, and its stdin. */
interface CliProcess {
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout or stderr matches; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<void>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  write(text: string): void;
  endInput(): void;
  kill(signal: NodeJS.Signals): void;
}

/** Starts `command args` in the project folder (by default the CLI: `node bin/lite-agent.js args`). */
function startCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; command?: string } = {},
): CliProcess {
  const [file, argv] = options.command ? [options.command, args] : [process.execPath, [bin, ...args]];
  const child = spawn(file, argv, {
    cwd: projectDir,
    env: cliEnv(options.env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const wakers = new Set<() => void>();
  const wake = () => wakers.forEach((w) => w());
  child.stdout.on("data", (chunk: Buffer) => ((stdout += chunk.toString("utf8")), wake()));
  child.stderr.on("data", (chunk: Buffer) => ((stderr += chunk.toString("utf8")), wake()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => (resolve({ code, stdout, stderr }), wake())),
  );
  let done = false;
  void exited.then(() => (done = true));
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(stdout) || pattern.test(stderr)) {
          wakers.delete(check);
          resolve();
        } else if (done) {
          wakers.delete(check);
          reject(new Error(`exited before printing ${pattern}:\n${stdout}\n${stderr}`));
        }
      };
      wakers.add(check);
      check();
    });
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor,
    exited,
    write: (text) => void child.stdin.write(text),
    endInput: () => child.stdin.end(),
    kill: (signal) => void child.kill(signal),
  };
}

/** Runs the CLI to its end. */
async function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = startCli(args);
  child.endInput();
  return child.exited;
}

/** Retries a CLI call until `accept` holds: the visibility store lags a little behind the workflows. */
async function eventually(args: string[], accept: (stdout: string) => boolean): Promise<string> {
  let last = "";
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = await cli(...args);
    last = `${result.stdout}${result.stderr}`;
    if (result.code === 0 && accept(result.stdout)) return result.stdout;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`'lite-agent ${args.join(" ")}' never gave the expected output; last:\n${last}`);
}

describe("the lite-agent CLI", () => {
  let worker: RunningWorker;
  let tmp: string;
  const done = sessionId("done");

  beforeAll(async () => {
    worker = await startTestWorker({ taskQueue, ...agentsModule });
    tmp = mkdtempSync(path.join(tmpdir(), "cli-e2e-"));
  });
  afterAll(async () => {
    await worker?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("run streams the run (tool calls, live text, usage) and exits 0", async () => {
    const result = await cli("run", "cli-tester", "add", "2", "and", "3", "--session", done);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('→ add {"a":2,"b":3}');
    expect(result.stdout).toContain("← add: 5");
    expect(result.stdout).toContain("The tool said: 5.");
    expect(result.stdout).toMatch(/done: stop · 2 turns · 1 tool call · tokens 20 in \/ 10 out/);
    expect(result.stderr).toContain(`session ${done}`);
  });

  it("run --json prints one JSON event per line; --answer answers the agent's question", async () => {
    const result = await cli("run", "cli-tester", "ask me", "--answer", "2", "--json");
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; sessionId: string; offset: number });
    expect(events.find((event) => event.type === "input_request")).toMatchObject({
      question: { question: "Which colour?", options: ["red", "blue"] },
    });
    expect(events.find((event) => event.type === "input_resolved")).toMatchObject({
      id: "q1",
      answer: { selected: ["blue"] },
    });
    expect(events.at(-1)).toMatchObject({ type: "done", result: { text: "The tool said: blue." } });
    expect(new Set(events.map((event) => event.sessionId)).size).toBe(1);
    expect(result.stderr).toContain("answered q1: blue");
  });

  it("list finds the session (flags given on the command line, -o jsonl); show reports status, usage and events", async () => {
    const listed = await eventually(
      [
        "--address",
        inject("temporalAddress"),
        "list",
        "--agent",
        "cli-tester",
        "--task-queue",
        taskQueue,
        "-o",
        "jsonl",
      ],
      (out) => out.includes(done),
    );
    const row = listed.split("\n").find((line) => line.includes(done));
    expect(JSON.parse(row!)).toMatchObject({
      sessionId: done,
      agent: "cli-tester",
      status: "idle",
      turns: 2,
      tokens: 30,
    });
    const [table, shown, array, line] = await Promise.all([
      cli("list", "--status", "idle"),
      cli("show", done),
      cli("list", "--agent", "cli-tester", "--json"),
      cli("show", done, "-o", "jsonl", "--events", "0"),
    ]);
    // --json is -o json: one array; -o jsonl of a single object: one line.
    const sessions = JSON.parse(array.stdout) as { sessionId: string }[];
    expect(sessions.map((session) => session.sessionId)).toContain(done);
    expect(line.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(line.stdout)).toMatchObject({ status: "idle", recentEvents: [] });
    expect(table.stdout).toMatch(/^SESSION\s+AGENT\s+STATUS\s+TURNS\s+TOKENS\s+COST\s+STARTED/);
    expect(table.stdout).toMatch(new RegExp(`${done}\\s+cli-tester\\s+idle\\s+2\\s+30\\s+-\\s`));
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("Status   idle");
    expect(shown.stdout).toContain("Usage    tokens 20 in / 10 out · 2 turns · 1 run completed");
    expect(shown.stdout).toContain("← add: 5");
    expect(shown.stdout).toContain("done: stop");
  });

  it("steer from another process reaches the run at its next turn", async () => {
    const session = sessionId("steer");
    const run = startCli(["run", "cli-tester", "pause", "--session", session]);
    await pauseWaiting();
    const steered = await cli("steer", session, "mention", "bananas");
    expect(steered.code).toBe(0);
    expect(steered.stdout).toContain("steer queued");
    resumePause();
    const result = await run.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("↪ steered: mention bananas");
    expect(result.stdout).toContain("heard: mention bananas");
  });

  it("cancel from another process ends the run, which exits 130", async () => {
    const session = sessionId("cancel");
    const run = startCli(["run", "cli-tester", "run the long job", "--session", session]);
    await run.waitFor(/→ long_job/);
    const cancelled = await cli("cancel", session);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(/cancelled run \S+ in session/);
    const result = await run.exited;
    expect(result.code).toBe(130);
    expect(result.stdout).toContain("done: aborted");
  });

  it("Ctrl-C on run stops following, says the run goes on and how to cancel it; the run is still cancellable", async () => {
    const session = sessionId("ctrl-c");
    const run = startCli(["run", "cli-tester", "run the long job", "--session", session]);
    await run.waitFor(/→ long_job/);
    expect(run.stderr()).toContain("Ctrl-C stops following; the run goes on");
    run.kill("SIGINT");
    const result = await run.exited;
    expect(result.code).toBe(130);
    const runId = new RegExp(`Ctrl-C: stopped following\\. Run (\\S+) goes on in session ${session}\\.`).exec(
      result.stderr,
    )?.[1];
    expect(runId).toBeDefined();
    expect(result.stderr).toContain(`follow it again: lite-agent watch ${session} --run ${runId}`);
    expect(result.stderr).toContain(`cancel it:       lite-agent cancel ${session} --run ${runId}`);
    expect(result.stdout).not.toContain("done: aborted");
    const cancelled = await cli("cancel", session, "--run", runId!);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain(`cancelled run ${runId} in session ${session}`);
  });

  it("run --detach prints the ids and the watch and cancel commands, and exits 0 without following", async () => {
    const session = sessionId("detach");
    const detached = await cli("run", "cli-tester", "delete d.txt", "--session", session, "--detach");
    expect(detached.code).toBe(0);
    const runId = /^run (\S+)$/m.exec(detached.stdout)?.[1];
    expect(detached.stdout).toBe(
      `session ${session}\nrun ${runId}\nfollow it: lite-agent watch ${session} --run ${runId}\ncancel it: lite-agent cancel ${session} --run ${runId}\n`,
    );
    // The run went on without the CLI: it waits for the approval it asked for.
    await eventually(["show", session], (out) => out.includes("awaiting_approval"));
    // Without --actor or LITE_AGENT_ACTOR the decision is recorded under the OS user's name.
    const approver = startCli(["approve", session, "del-d.txt"], { env: { LITE_AGENT_ACTOR: undefined } });
    approver.endInput();
    const approved = await approver.exited;
    expect(approved.code).toBe(0);
    const user = userInfo().username;
    expect(approved.stdout).toContain(`allowed del-d.txt in session ${session} (by ${user})`);
    const watched = await cli("watch", session, "--run", runId!);
    expect(watched.code).toBe(0);
    expect(watched.stdout).toContain(`✓ del-d.txt allowed by ${user}`);
    expect(watched.stdout).toContain("The tool said: deleted d.txt.");
    // Five CLI processes or more, each starting Node and tsx: on a loaded 2-core machine that can pass 30 s.
  }, 60_000);

  it("history exports JSON that replay accepts; a tampered history fails replay with exit 1", async () => {
    const file = path.join(tmp, "history.json");
    const [exported, lines, table] = await Promise.all([
      cli("history", done, "--file", file),
      cli("history", done, "-o", "jsonl"),
      cli("history", done, "-o", "table"),
    ]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/wrote the history of session .* \(\d+ events\) to /);
    const first = JSON.parse(lines.stdout.split("\n")[0]!) as { eventId: string; eventType: string };
    expect(first).toMatchObject({ eventId: "1", eventType: "EVENT_TYPE_WORKFLOW_EXECUTION_STARTED" });
    expect(table.stdout).toMatch(/^ID\s+TIME\s+TYPE\n1\s+\S+\s+WorkflowExecutionStarted\n2\s/);
    const history = JSON.parse(readFileSync(file, "utf8")) as {
      events: { activityTaskScheduledEventAttributes?: { activityType: { name: string } } }[];
    };
    expect(history.events.length).toBeGreaterThan(5);
    // A breaking change as history shows it: the first model call recorded as a tool call.
    const model = history.events.find(
      (event) => event.activityTaskScheduledEventAttributes?.activityType.name === "callModel",
    );
    model!.activityTaskScheduledEventAttributes!.activityType.name = "executeTool";
    const tampered = path.join(tmp, "tampered.json");
    writeFileSync(tampered, JSON.stringify(history));
    const [replayed, failed] = await Promise.all([cli("replay", file), cli("replay", tampered)]);
    expect(replayed.stdout).toContain("ok: the current workflow code replays");
    expect(replayed.code).toBe(0);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/determinism error: .*does not reproduce/);
    expect(failed.stderr).toMatch(/Nondeterminism/i);
  });

  it("run --yes allows the tool call that asks for approval", async () => {
    const result = await cli("run", "cli-tester", "delete a.txt", "--yes");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("? approval needed for delete_file");
    expect(result.stdout).toContain("✓ del-a.txt allowed by tester");
    expect(result.stdout).toContain("The tool said: deleted a.txt.");
  });

  it("a run waiting for approval is listed as awaiting_approval, shown with the command, and approved from another process", async () => {
    const session = sessionId("approve");
    const run = startCli(["run", "cli-tester", "delete b.txt", "--session", session]);
    await run.waitFor(/waiting for a decision on del-b\.txt: lite-agent approve/);
    const [, shown] = await Promise.all([
      eventually(["list", "--status", "awaiting_approval", "--json"], (out) => out.includes(session)),
      cli("show", session),
    ]);
    expect(shown.stdout).toContain("Status   awaiting_approval");
    expect(shown.stdout).toContain(`allow: lite-agent approve ${session} del-b.txt`);
    const approved = await cli("approve", session, "del-b.txt", "--actor", "ops", "--reason", "looks fine");
    expect(approved.code).toBe(0);
    const [result, again] = await Promise.all([run.exited, cli("approve", session, "del-b.txt")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✓ del-b.txt allowed by ops (looks fine)");
    expect(result.stdout).toContain("The tool said: deleted b.txt.");
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/approve rejected: .*already settled/);
  });

  it.skipIf(!hasScript)("at a terminal, run asks y/n inline and sends the decision", async () => {
    const command = `${process.execPath} ${bin} run cli-tester delete c.txt`;
    const run = startCli(["-qec", command, "/dev/null"], { command: "script" });
    await run.waitFor(/Allow delete_file \{"path":"c\.txt"\}\?/);
    run.write("n not today\r");
    const result = await run.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("✗ del-c.txt denied by tester (not today)");
    expect(result.stdout).toContain("The tool said: Error: denied by user: not today.");
  });

  it("misuse gets a clear message and a non-zero exit code", async () => {
    const cases: [string[], number, RegExp][] = [
      [["frobnicate"], 2, /unknown command 'frobnicate'/],
      [["approve"], 2, /missing required argument 'session'/],
      [["run", "cli-tester", "hi", "--yes", "--no"], 2, /cannot be used with/],
      [["list", "--status", "bogus"], 2, /unknown status 'bogus'; one of: idle, running/],
      [["watch", done, "--from", "soon"], 2, /expected a whole number/],
      [["replay", path.join(tmpdir(), "no-such-history.json")], 2, /cannot read/],
      // Named after the command typed, not the client's method (describe) or the workflow's handler.
      [["show", sessionId("missing")], 1, /^error: show: session 'cli-missing-\w+' not found\n$/],
      [
        ["approve", done, "no-such-call"],
        1,
        /^error: approve rejected: no pending approval for call 'no-such-call'/,
      ],
      [["watch", done], 1, /has no run in progress or queued/],
      [["history", sessionId("missing")], 1, /history: session 'cli-missing-\w+' not found/],
      // `-o` is the output format everywhere; the old `history -o <file>` says what to write instead.
      [["history", done, "-o", "h.json"], 2, /Allowed choices are table, json, jsonl\. .*--file h\.json/],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    results.forEach((result, i) => {
      const [args, code, message] = cases[i]!;
      expect({ args, code: result.code, stderr: result.stderr }).toMatchObject({
        code,
        stderr: expect.stringMatching(message),
      });
    });
  });

  it("worker serves the agents of a module until Ctrl-C", async () => {
    const queue = uniqueTaskQueue("cli-worker");
    const served = startCli(["worker", "--agents", fixture, "--task-queue", queue]);
    await served.waitFor(/Worker polling task queue '[\w.-]+' with agents: cli-tester/);
    const result = await cli("--task-queue", queue, "run", "cli-tester", "add 20 and 22");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("The tool said: 42.");
    served.kill("SIGINT");
    const stopped = await served.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain("Worker stopped.");
  });

  it("worker takes tracing (OTLP) and metrics (Prometheus) from the environment", async () => {
    // A stand-in OTLP/HTTP collector: the protobuf bodies it receives hold span names and attributes as plain bytes.
    const received: Buffer[] = [];
    const collector = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        if (request.url === "/v1/traces") received.push(Buffer.concat(chunks));
        response.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    const { port: collectorPort } = collector.address() as AddressInfo;
    const metricsPort = await findFreePort();
    const queue = uniqueTaskQueue("cli-otel");
    const served = startCli(["worker", "--agents", fixture, "--task-queue", queue], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
        OTEL_SERVICE_NAME: "cli-otel-worker",
        OTEL_BSP_SCHEDULE_DELAY: "100",
        LITE_AGENT_METRICS_PORT: `127.0.0.1:${metricsPort}`,
      },
    });
    try {
      await served.waitFor(/Worker polling task queue/);
      const result = await cli("--task-queue", queue, "run", "cli-tester", "add 20 and 22");
      expect(result.code).toBe(0);
      const exported = async () => Buffer.concat(received).toString("latin1");
      const deadline = Date.now() + 10_000;
      while (!(await exported()).includes("invoke_agent cli-tester") && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const spans = await exported();
      for (const text of ["invoke_agent cli-tester", "turn 1", "execute_tool add", "cli-otel-worker"])
        expect(spans).toContain(text);
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toMatch(
        /^lite_agent_tool_calls_total\{agent="cli-tester",outcome="ok",tool="add"\} 1$/m,
      );
      expect(metrics).toMatch(/^temporal_workflow_task_execution_latency\w*\{/m);
    } finally {
      served.kill("SIGINT");
      await served.exited;
      collector.close();
    }
  }, 60_000);

  it("dev runs a dev server and the demo agent, which run serves out of the box", async () => {
    const port = await findFreePort();
    const uiPort = await findFreePort("127.0.0.1", [port]);
    // Out of the box: the default task queue, the scripted demo model (no OpenAI settings reach the CLI).
    const defaults = {
      env: { LITE_AGENT_TASK_QUEUE: undefined, TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: undefined },
    };
    const dev = startCli(
      ["dev", "--port", String(port), "--ui-port", String(uiPort), "--cache-dir", tmp],
      defaults,
    );
    await dev.waitFor(/Press Ctrl-C to stop/);
    expect(dev.stdout()).toContain("(each session is a workflow, its id the session id)");
    expect(dev.stdout()).toContain(`Temporal dev server: 127.0.0.1:${port}`);
    expect(dev.stdout()).toContain(`Temporal UI: http://127.0.0.1:${uiPort}`);
    const run = startCli(
      ["--address", `127.0.0.1:${port}`, "run", "sandbox-analyst", "What is the revenue?", "--yes"],
      defaults,
    );
    run.endInput();
    const result = await run.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Total revenue: 10650");
    // The demo agent's report write waited for an approval, which --yes gave.
    expect(result.stdout).toContain("Saved to report.md.");
    dev.kill("SIGINT");
    const stopped = await dev.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain("Temporal dev server stopped.");
    // Quiet without --verbose: none of the server's own (non-error) log lines.
    expect(stopped.stderr).not.toMatch(/\[temporal\].*level=(INFO|WARN)/i);
  }, 60_000);
});
