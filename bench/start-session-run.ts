import { randomUUID } from "node:crypto";
import { WithStartWorkflowOperation } from "@temporalio/client";
import type { AgentClient, StartedRun } from "../src/client.js";
import type { RunResult } from "../src/kernel/vocabulary/events.js";
import { agentSession } from "../src/workflows/session/agent-session.js";
import { startRunUpdate } from "../src/contract/messages.js";

/**
 * Starts a run in a new session the way `AgentClient.start` does (update-with-start), but lets the session pass
 * model requests inline (`SessionInput.inlineRequests`), which `AgentClient` does not expose.
 */
export async function startSessionRun(
  client: AgentClient,
  agent: string,
  input: string,
  options: { inlineRequests: boolean },
): Promise<StartedRun> {
  const sessionId = `bench-session-${randomUUID()}`;
  const startWorkflowOperation = new WithStartWorkflowOperation(agentSession, {
    workflowId: sessionId,
    taskQueue: client.taskQueueFor(agent),
    args: [{ sessionId, agent, ...(options.inlineRequests ? { inlineRequests: true } : {}) }],
    workflowIdConflictPolicy: "USE_EXISTING",
    memo: { agent },
  });
  const started = await client.temporal.workflow.executeUpdateWithStart(startRunUpdate, {
    args: [{ runId: randomUUID(), agent, input }],
    startWorkflowOperation,
  });
  return { ...started, sessionId };
}

/** Reads a run's events to its end, as a client following the run would, and returns its result. */
export async function followRun(client: AgentClient, started: StartedRun): Promise<RunResult> {
  const events = client.session(started.sessionId).events(started.runId, { fromOffset: started.offset });
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
  }
}
