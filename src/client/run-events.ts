import { setTimeout as sleep } from "node:timers/promises";
import { WorkflowNotFoundError } from "@temporalio/client";
import type { RunResult } from "../kernel/vocabulary/events.js";
import { SessionError } from "./client-errors.js";
import { runEventStream, type DurableEvent, type EventStreamPosition } from "./events/run-event-stream.js";
import { withSubagentEvents } from "./events/subagent-events.js";
import { SUBAGENT_RUN_ID } from "../contract/session-input.js";
import type { ClientContext } from "./client-context.js";
import { sessionStream } from "./session-call.js";

/** The events of one run from `position`, its subagents' merged in (see `SessionHandle.events`). */
export async function* runEvents(
  client: ClientContext,
  sessionId: string,
  runId: string,
  position: EventStreamPosition = {},
): AsyncGenerator<DurableEvent, RunResult> {
  const own = runEventStream(client.temporal, sessionId, runId, position, client.deltas, client.closing, {
    dataConverter: client.temporal.options.dataConverter,
    ...(client.workflowModules ? { workflowModules: client.workflowModules } : {}),
  });
  const merged = withSubagentEvents(own, (child) => subagentEvents(client, child));
  const result = yield* sessionStream(sessionId, "read events", merged);
  if (!result)
    throw new SessionError(
      `session '${sessionId}' ended before run '${runId}' finished`,
      sessionId,
      "closed",
    );
  return result;
}

/** A subagent session's task run, once the child workflow exists (it starts just after its `subagent` event). */
async function* subagentEvents(
  client: ClientContext,
  sessionId: string,
): AsyncGenerator<DurableEvent, RunResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.temporal.workflow.getHandle(sessionId).describe();
      break;
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError) || attempt >= 100) throw error;
      await sleep(100, undefined, { signal: client.closing });
    }
  }
  return yield* runEvents(client, sessionId, SUBAGENT_RUN_ID);
}
