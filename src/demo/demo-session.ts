import { randomUUID } from "node:crypto";
import type { AgentClient, SessionHandle } from "../client.js";
import type { AgentEvent, RunResult } from "../kernel/vocabulary/events.js";
import { DEMO_AGENT_NAME } from "./demo-agent.js";

/** What one demo session produced. */
export interface DemoSessionResult {
  sessionId: string;
  result: RunResult;
}

/** Options of {@link runDemoSession}. */
export interface DemoSessionOptions {
  client: AgentClient;
  prompt: string;
  /** Called with each event as it arrives. */
  onEvent(event: AgentEvent): void;
  /** Called once the session exists, before its first event. */
  onStarted(sessionId: string): void;
  /** Aborting it cancels the run (it then ends with `done(aborted)`). */
  interrupt: AbortSignal;
  log(line: string): void;
}

/** Reads the run's events to its `done`, passing each on, and returns the run's result. */
async function follow(
  options: DemoSessionOptions,
  session: SessionHandle,
  runId: string,
  offset: number,
): Promise<RunResult> {
  const events = session.events(runId, { fromOffset: offset });
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    options.onEvent(next.value);
  }
}

/**
 * Runs the prompt in a new session of the demo agent and follows its events. Ctrl-C cancels the run through
 * Temporal. The session is closed afterwards, so its workflow completes instead of waiting for more runs.
 */
export async function runDemoSession(options: DemoSessionOptions): Promise<DemoSessionResult> {
  const { client, interrupt, log } = options;
  const sessionId = `demo-${randomUUID().slice(0, 8)}`;
  const session = client.session(sessionId);
  const started = await session.start(options.prompt, { agent: DEMO_AGENT_NAME });
  options.onStarted(sessionId);
  const cancel = () => {
    session.cancel().catch((error: unknown) => log(`could not cancel the run: ${String(error)}`));
  };
  if (interrupt.aborted) cancel();
  else interrupt.addEventListener("abort", cancel, { once: true });
  try {
    return { sessionId, result: await follow(options, session, started.runId, started.offset) };
  } finally {
    interrupt.removeEventListener("abort", cancel);
    await session
      .close()
      .catch((error: unknown) => log(`could not close session ${sessionId}: ${String(error)}`));
  }
}
