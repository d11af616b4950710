import type { Readable, Writable } from "node:stream";
import type { StopReason } from "../kernel/vocabulary/events.js";
import { demoApprovals } from "./demo-approvals.js";
import { demoAgent, DEMO_AGENT_NAME } from "./demo-agent.js";
import { chooseDemoModel } from "./demo-model.js";
import type { DemoOptions } from "./demo-options.js";
import { startDemoRuntime, startDemoServer, type DemoRuntime, type DemoServer } from "./demo-runtime.js";
import { runDemoSession } from "./demo-session.js";
import { EventPrinter } from "../terminal/event-printer.js";
import { handleInterrupts, type Interrupts } from "../terminal/interrupts.js";
import { prepareSandbox } from "./prepare-sandbox.js";
import { sessionUiLink, webUiBase } from "./session-link.js";
import { terminalStyle, type TerminalStyle } from "../terminal/terminal-style.js";

/** Where the demo writes, and how; where it reads a person's approvals from. */
export interface DemoIo {
  write(text: string): void;
  color: boolean;
  env: NodeJS.ProcessEnv;
  /** The terminal (or not) the demo asks for approvals on, and writes its prompts to. */
  input: Readable & { isTTY?: boolean };
  output: Writable;
}

/** Exit codes: 0 for an answer, 1 for a failed run, 130 (128 + SIGINT) for a run cut short by Ctrl-C. */
const EXIT_CODES: Record<StopReason, number> = { stop: 0, max_turns: 1, error: 1, budget: 1, aborted: 130 };

/** The state one demo process builds up, so shutdown can undo exactly what was started. */
interface DemoContext {
  options: DemoOptions;
  io: DemoIo;
  style: TerminalStyle;
  say(line: string): void;
  interrupts: Interrupts;
  server?: DemoServer;
  runtime?: DemoRuntime;
}

function sessionLinkLine(context: DemoContext, sessionId: string): string {
  const server = context.server;
  const base = server && webUiBase(context.options.uiUrl, server.uiUrl, server.address);
  if (server && base) return `Temporal UI: ${sessionUiLink(base, server.namespace, sessionId)}`;
  return `Temporal UI: unknown for ${server?.address ?? "this server"}; set TEMPORAL_UI_URL to get a link (workflow id ${sessionId})`;
}

/** Starts everything, runs one session, and returns the exit code. */
async function runOnce(context: DemoContext): Promise<number> {
  const { options, io, style, say, interrupts } = context;
  const model = chooseDemoModel(io.env, options.scripted);
  say(model.notice);
  const entries = prepareSandbox(options.sandboxDir);
  say(`Sandbox: ${options.sandboxDir} (${entries} entries); the tools cannot reach outside it.`);
  context.server = await startDemoServer(options, io.env, say);
  if (interrupts.signal.aborted) return 130;
  const agent = demoAgent(options.sandboxDir, model.id);
  context.runtime = await startDemoRuntime(context.server, agent, model, options.taskQueue);
  say(
    `Worker: task queue ${options.taskQueue}.${DEMO_AGENT_NAME}, agent ${DEMO_AGENT_NAME} with tools ${agent.tools?.map((tool) => tool.name).join(", ")}`,
  );
  say(`Prompt: ${options.prompt}`);
  const printer = new EventPrinter({ write: io.write, color: io.color });
  let approvals: ReturnType<typeof demoApprovals> | undefined;
  const session = runDemoSession({
    client: context.runtime.client,
    prompt: options.prompt,
    interrupt: interrupts.signal,
    log: say,
    onStarted: (sessionId) => {
      // The link while the run works: the session's page fills in live, and the run's approval waits there too.
      io.write(`${style.bold(`Session: ${sessionId}`)}\n${sessionLinkLine(context, sessionId)}\n\n`);
      approvals = demoApprovals({
        session: context.runtime!.client.session(sessionId),
        yes: options.yes,
        input: io.input,
        output: io.output,
        say,
      });
    },
    onEvent: (event) => {
      printer.print(event);
      approvals?.onEvent(event);
    },
  });
  const workerFailed = context.runtime.workerStopped.then(() =>
    Promise.reject(new Error("the worker stopped during the run")),
  );
  const { sessionId, result } = await Promise.race([session, workerFailed]).finally(() =>
    approvals?.settle(),
  );
  io.write(`\n${style.bold(`Session: ${sessionId}`)}\n${style.bold(sessionLinkLine(context, sessionId))}\n`);
  if (!options.keep && context.server?.pid !== undefined)
    say(
      "The embedded server stops now, and the link with it: run with --keep to browse the session in the UI.",
    );
  return EXIT_CODES[result.stopReason];
}

async function keepRunning(context: DemoContext): Promise<void> {
  if (!context.options.keep || context.interrupts.signal.aborted) return;
  context.say("--keep: the server and the worker stay up so you can browse the UI. Press Ctrl-C to stop.");
  await context.interrupts.interrupted;
}

async function shutDown(context: DemoContext): Promise<void> {
  if (context.runtime) {
    await context.runtime.stop();
    context.say("Worker stopped.");
  }
  if (context.server?.pid !== undefined) {
    await context.server.stop();
    context.say(`Temporal dev server stopped (pid ${context.server.pid}).`);
  }
}

/**
 * The demo: the embedded dev server (or `TEMPORAL_ADDRESS`), a worker, and one durable run of the sandbox
 * analyst whose events stream to the terminal; then the session's UI link, and a clean shutdown.
 */
export async function runDemo(options: DemoOptions, io: DemoIo): Promise<number> {
  const style = terminalStyle(io.color);
  const say = (line: string) => io.write(`${style.dim(line)}\n`);
  const context: DemoContext = { options, io, style, say, interrupts: handleInterrupts(say) };
  io.write(`${style.bold("lite-agent demo: a durable agent run on Temporal")}\n`);
  try {
    const code = await runOnce(context);
    await keepRunning(context);
    return code;
  } catch (error) {
    io.write(`${style.red(`demo failed: ${error instanceof Error ? error.message : String(error)}`)}\n`);
    return 1;
  } finally {
    await shutDown(context);
    context.interrupts.dispose();
  }
}
