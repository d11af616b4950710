import type { AgentClient, DurableEvent } from "../../../src/client.js";
import type { RunResult } from "../../../src/kernel/vocabulary/events.js";
import { approveSignal } from "../../../src/contract/messages.js";
import {
  APPROVAL_CALL_ID,
  COMPACTION_SUMS,
  INTERRUPT_MESSAGE,
  LARGE_RESULT_CHARS,
  LIMITS_CHILD_CALL_ID,
  QUESTION_CALL_ID,
  type RecorderGates,
} from "./recorder-kit.js";
import { waitFor } from "./wait-for.js";

/** What a scenario gets: the client, the session to use and the gates of the gated tools. */
export interface ScenarioContext {
  client: AgentClient;
  sessionId: string;
  gates: RecorderGates;
}

/** Plays one scenario in its session; resolves when the session is at rest. */
export type Scenario = (context: ScenarioContext) => Promise<void>;

/** Drains a run's events and checks how it ended, so a recording that went wrong is not written. */
async function expectEnd(
  events: AsyncGenerator<DurableEvent, RunResult>,
  stopReason: string,
): Promise<DurableEvent[]> {
  const seen: DurableEvent[] = [];
  for (;;) {
    const next = await events.next();
    if (next.done) {
      if (next.value.stopReason !== stopReason)
        throw new Error(`run ended with '${next.value.stopReason}', expected '${stopReason}'`);
      return seen;
    }
    seen.push(next.value);
  }
}

const agentOf = (scenario: string) => `replay-${scenario}`;

const toolLoop: Scenario = async ({ client, sessionId }) => {
  await expectEnd(client.run(agentOf("tool-loop"), "What is 2+3+10, and shout hi?", { sessionId }), "stop");
};

const steerFollowUp: Scenario = async ({ client, sessionId, gates }) => {
  const agent = agentOf("steer-follow-up");
  const started = await client.start(agent, "How much rain falls here?", { sessionId });
  await gates.holdEntered.opened;
  await client.session(sessionId).steer("Answer in millimetres.", { id: "steer-1" });
  await client.session(sessionId).followUp("Now say it in one line.", { id: "follow-up-1" });
  gates.holdRelease.open();
  const events = await expectEnd(
    client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    "stop",
  );
  const steers = events.filter((event) => event.type === "steer").length;
  if (steers !== 2) throw new Error(`expected a steer and a follow-up to land, saw ${steers} steer events`);
  await expectEnd(client.run(agent, "A second question.", { sessionId }), "stop");
};

const cancel: Scenario = async ({ client, sessionId, gates }) => {
  const agent = agentOf("cancel");
  const started = await client.start(agent, "Run the long job.", { sessionId });
  await gates.slowEntered.opened;
  await client.session(sessionId).cancel({ reason: "recorder cancels" });
  await expectEnd(client.session(sessionId).events(started.runId, { fromOffset: started.offset }), "aborted");
  // The tool has seen the cancel on the worker; its activity's end is in history before the next run starts.
  await gates.slowExited.opened;
  await waitForActivityEnd(client, sessionId);
  await expectEnd(client.run(agent, "Start over.", { sessionId }), "stop");
};

const continueAsNew: Scenario = async ({ client, sessionId }) => {
  const agent = agentOf("continue-as-new");
  await expectEnd(client.run(agent, "First.", { sessionId }), "stop");
  const first = (await client.session(sessionId).workflow.describe()).runId;
  await expectEnd(client.run(agent, "Second: 1+2?", { sessionId }), "stop");
  await waitFor(
    async () => (await client.session(sessionId).workflow.describe()).runId !== first,
    "the session to continue as new",
  );
  await expectEnd(client.run(agent, "Third.", { sessionId }), "stop");
};

const midRunContinueAsNew: Scenario = async ({ client, sessionId }) => {
  const events = await expectEnd(
    client.run(agentOf("mid-run-continue-as-new"), "Add six times.", { sessionId }),
    "stop",
  );
  const turns = events.filter((event) => event.type === "turn_start").length;
  if (turns !== 7) throw new Error(`expected 7 turns across continue-as-new, saw ${turns}`);
};

const providerError: Scenario = async ({ client, sessionId }) => {
  await expectEnd(client.run(agentOf("provider-error"), "Say something.", { sessionId }), "error");
};

const closed: Scenario = async ({ client, sessionId }) => {
  await expectEnd(client.run(agentOf("closed"), "4+4, then we are done.", { sessionId }), "stop");
  await client.session(sessionId).close();
  await client.session(sessionId).workflow.result();
};

/** Waits until the session shows the approval scenarios' tool call as pending. */
async function waitForPendingApproval(client: AgentClient, sessionId: string): Promise<void> {
  await waitFor(
    async () =>
      (await client.session(sessionId).describe()).pendingApprovals.some(
        (item) => item.callId === APPROVAL_CALL_ID,
      ),
    `approval ${APPROVAL_CALL_ID} to be pending`,
  );
}

const approvalWait: Scenario = async ({ client, sessionId }) => {
  const started = await client.start(agentOf("approval-wait"), "What is 2+2? (needs approval)", {
    sessionId,
  });
  await waitForPendingApproval(client, sessionId);
  await client.session(sessionId).approve(APPROVAL_CALL_ID, { actor: "recorder", reason: "fine" });
  const events = await expectEnd(
    client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    "stop",
  );
  const result = events.find((event) => event.type === "tool_result");
  if (!result || JSON.stringify(result).includes("denied"))
    throw new Error("the approved add did not run: " + JSON.stringify(result));
};

const approvalDeny: Scenario = async ({ client, sessionId }) => {
  const started = await client.start(agentOf("approval-deny"), "What is 7+7? (needs approval)", {
    sessionId,
  });
  await waitForPendingApproval(client, sessionId);
  await client.session(sessionId).deny(APPROVAL_CALL_ID, { actor: "recorder", reason: "not now" });
  const events = await expectEnd(
    client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    "stop",
  );
  const result = events.find((event) => event.type === "tool_result");
  if (!result || !JSON.stringify(result).includes("denied"))
    throw new Error("the denied add did not come back as denied: " + JSON.stringify(result));
};

/** A decision signal from someone the approvers do not name (listed and ignored), then one from an approver. */
const approvers: Scenario = async ({ client, sessionId }) => {
  const started = await client.start(agentOf("approvers"), "What is 8+8? (needs the recorder's approval)", {
    sessionId,
  });
  await waitForPendingApproval(client, sessionId);
  const handle = client.session(sessionId).workflow;
  await handle.signal(approveSignal, { callId: APPROVAL_CALL_ID, actor: "intruder" });
  await waitFor(
    async () => ((await client.session(sessionId).describe()).rejectedDecisions ?? []).length === 1,
    "the intruder's approval to be listed as ignored",
  );
  await handle.signal(approveSignal, { callId: APPROVAL_CALL_ID, actor: "recorder", reason: "checked" });
  const events = await expectEnd(
    client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    "stop",
  );
  const resolved = events.find((event) => event.type === "approval_resolved");
  if (!resolved || !JSON.stringify(resolved).includes('"actor":"recorder"'))
    throw new Error("the approver's signal did not decide: " + JSON.stringify(resolved));
};

const question: Scenario = async ({ client, sessionId }) => {
  const started = await client.start(agentOf("question"), "Pick a colour for me.", { sessionId });
  await waitFor(
    async () =>
      (await client.session(sessionId).describe()).pendingQuestions.some(
        (item) => item.callId === QUESTION_CALL_ID,
      ),
    `question ${QUESTION_CALL_ID} to be pending`,
  );
  await client.session(sessionId).answer(QUESTION_CALL_ID, { selected: ["blue"] }, { actor: "recorder" });
  const events = await expectEnd(
    client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    "stop",
  );
  const result = events.find((event) => event.type === "tool_result");
  if (!result || !JSON.stringify(result).includes("blue"))
    throw new Error("the answer did not become the tool result: " + JSON.stringify(result));
};

const contextEngine: Scenario = async ({ client, sessionId }) => {
  const events = await expectEnd(
    client.run(agentOf("context-engine"), "Read two pages.", { sessionId }),
    "stop",
  );
  if (!events.some((event) => event.type === "context_status" && event.level >= 1))
    throw new Error("the ContextEngine never acted (no context_status at level 1 or more)");
};

const approvalTimeout: Scenario = async ({ client, sessionId }) => {
  const events = await expectEnd(
    client.run(agentOf("approval-timeout"), "What is 3+3? (nobody approves)", { sessionId }),
    "stop",
  );
  const result = events.find((event) => event.type === "tool_result");
  if (!result || !JSON.stringify(result).includes("timed out"))
    throw new Error("the add was not denied by the approval timeout: " + JSON.stringify(result));
};

const interrupt: Scenario = async ({ client, sessionId, gates }) => {
  const started = await client.start(agentOf("interrupt"), "Write a very long essay.", { sessionId });
  await gates.modelEntered.opened;
  if (!(await client.session(sessionId).interrupt(INTERRUPT_MESSAGE)))
    throw new Error("the interrupt found no model call in flight");
  const events = await expectEnd(
    client.session(sessionId).events(started.runId, { fromOffset: started.offset }),
    "stop",
  );
  if (!events.some((event) => event.type === "steer"))
    throw new Error("the interrupt's message did not land as a steer");
  // The cancelled model call has seen the cancel on the worker; its activity's end is in history.
  await gates.modelExited.opened;
  await waitForActivityEnd(client, sessionId);
};

const cancelDuringApproval: Scenario = async ({ client, sessionId }) => {
  const started = await client.start(agentOf("cancel-during-approval"), "What is 5+5? (cancelled)", {
    sessionId,
  });
  await waitForPendingApproval(client, sessionId);
  await client.session(sessionId).cancel({ reason: "recorder cancels while the approval waits" });
  await expectEnd(client.session(sessionId).events(started.runId, { fromOffset: started.offset }), "aborted");
  const status = await client.session(sessionId).describe();
  if (status.pendingApprovals.length > 0)
    throw new Error(`approvals still pending after the cancel: ${JSON.stringify(status.pendingApprovals)}`);
  // A late decision is refused (its validator rejects it, so nothing of it reaches the history).
  const late = await client
    .session(sessionId)
    .approve(APPROVAL_CALL_ID)
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  if (!late) throw new Error("a decision on the cancelled approval was accepted");
  if (!String((late as Error).message).includes("cancelled"))
    throw new Error(
      `the late decision was refused without saying it was cancelled: ${(late as Error).message}`,
    );
};

const storedPayload: Scenario = async ({ client, sessionId }) => {
  // The page is stored by reference in the history; the client reads it whole (its read, too, by reference).
  const events = await expectEnd(
    client.run(agentOf("stored-payload"), "Fetch the long page.", { sessionId }),
    "stop",
  );
  const toolResult = events.find((event) => event.type === "tool_result");
  if (toolResult?.type !== "tool_result") throw new Error("the run shows no tool result for the long page");
  if (toolResult.result.content.length !== LARGE_RESULT_CHARS)
    throw new Error(`the client got ${toolResult.result.content.length} characters of the long page`);
};

const compaction: Scenario = async ({ client, sessionId }) => {
  const agent = agentOf("compaction");
  await expectEnd(client.run(agent, "First.", { sessionId }), "stop");
  await expectEnd(client.run(agent, "Second.", { sessionId }), "stop");
  const events = await expectEnd(client.run(agent, `Add ${COMPACTION_SUMS} times.`, { sessionId }), "stop");
  if (!events.some((event) => event.type === "compaction"))
    throw new Error("the third run shows no compaction");
};

const subagent: Scenario = async ({ client, sessionId }) => {
  const events = await expectEnd(
    client.run(agentOf("subagent"), "Ask the child to add.", { sessionId }),
    "stop",
  );
  if (
    !events.some(
      (event) => event.type === "subagent" && event.phase === "end" && event.status === "completed",
    )
  )
    throw new Error("the subagent did not complete");
};

const background: Scenario = async ({ client, sessionId }) => {
  const events = await expectEnd(
    client.run(agentOf("background"), "Ask the child in the background.", { sessionId }),
    "stop",
  );
  if (
    !events.some((event) => event.type === "background_completed" && event.completion.status === "completed")
  )
    throw new Error("the background group's note did not arrive");
};

/**
 * A run starts a detached group (its child waits for approval), then a joinable one that `maxTotal: 1` refuses; once
 * approved, the detached group's note reaches the next run.
 */
const backgroundLimits: Scenario = async ({ client, sessionId }) => {
  const agent = agentOf("background-limits");
  const first = await expectEnd(client.run(agent, "Two groups, please.", { sessionId }), "stop");
  const refused = first.some(
    (event) => event.type === "tool_result" && !event.forkId && event.result.content.includes("(maxTotal 1)"),
  );
  if (!refused) throw new Error("maxTotal did not refuse the joinable group");
  await waitFor(
    async () => (await client.session(sessionId).describe()).pendingApprovals.length === 1,
    "the detached child's approval request",
  );
  await client.session(sessionId).approve(LIMITS_CHILD_CALL_ID);
  await waitFor(
    async () => (await client.session(sessionId).describe()).backgroundTasks?.[0]?.done === true,
    "the detached group to finish",
  );
  const second = await expectEnd(client.run(agent, "Any news?", { sessionId }), "stop");
  if (!second.some((event) => event.type === "background_completed"))
    throw new Error("the detached group's note did not reach the next run");
};

/**
 * A run joins a background group whose child waits for approval, and is cancelled: its `done` comes after the child
 * session stopped, so no approval is left behind.
 */
const cancelBackgroundJoin: Scenario = async ({ client, sessionId }) => {
  const started = await client.start(agentOf("cancel-background-join"), "Ask the child, then wait.", {
    sessionId,
  });
  await waitFor(
    async () => (await client.session(sessionId).describe()).pendingApprovals.length === 1,
    "the joined child's approval request",
  );
  await client.session(sessionId).cancel({ reason: "recorder cancels while the run joins" });
  await expectEnd(client.session(sessionId).events(started.runId, { fromOffset: started.offset }), "aborted");
  const status = await client.session(sessionId).describe();
  if (status.pendingApprovals.length > 0 || status.subagents)
    throw new Error(`the child was left behind: ${JSON.stringify(status)}`);
};

const middleware: Scenario = async ({ client, sessionId }) => {
  const events = await expectEnd(client.run(agentOf("middleware"), "Add 1 and 1.", { sessionId }), "stop");
  if (!events.some((event) => event.type === "tool_result" && event.result.content.endsWith("[recorded #1]")))
    throw new Error("the middleware did not record the call");
};

const budget: Scenario = async ({ client, sessionId }) => {
  await expectEnd(client.run(agentOf("budget"), "Add 3 and 4.", { sessionId }), "stop");
  if ((await client.session(sessionId).describe()).cost === undefined)
    throw new Error("the session shows no cost");
};

const mcp: Scenario = async ({ client, sessionId }) => {
  const events = await expectEnd(client.run(agentOf("mcp"), "Echo replay.", { sessionId }), "stop");
  if (!events.some((event) => event.type === "tool_result" && event.result.content === "Echo: replay"))
    throw new Error("the MCP server did not echo");
};

/** A source session's first run (two turns: a tool call, then the answer), forked at its end into the scenario's session. */
const fork: Scenario = async ({ client, sessionId }) => {
  const agent = agentOf("fork");
  const source = `${sessionId}-source`;
  await expectEnd(client.run(agent, "Add 1 and 2.", { sessionId: source }), "stop");
  await client.session(source).fork({ atTurn: 2, newSessionId: sessionId });
  await expectEnd(client.run(agent, "Again, briefly.", { sessionId }), "stop");
};

/** A tool's `ctx.fork`: a child session of the agent, started through the `startFork` update. */
const toolFork: Scenario = async ({ client, sessionId }) => {
  const events = await expectEnd(client.run(agentOf("tool-fork"), "Fork a sum.", { sessionId }), "stop");
  if (!events.some((event) => event.type === "tool_result" && event.result.content === "the fork says: 4"))
    throw new Error("the fork did not answer");
};

/** Four turns on a worker without live output; the second turn's tool rests past the progress interval. */
const fewerTurnCommands: Scenario = async ({ client, sessionId }) => {
  await expectEnd(client.run(agentOf("fewer-turn-commands"), "Add, rest, add.", { sessionId }), "stop");
};

/** The scenario implementations, by the names of SCENARIOS. */
export const SCENARIO_RUNNERS: Readonly<Record<string, Scenario>> = {
  "tool-loop": toolLoop,
  "steer-follow-up": steerFollowUp,
  cancel,
  "continue-as-new": continueAsNew,
  "mid-run-continue-as-new": midRunContinueAsNew,
  "provider-error": providerError,
  closed,
  "approval-wait": approvalWait,
  "approval-timeout": approvalTimeout,
  "approval-deny": approvalDeny,
  approvers,
  question,
  "context-engine": contextEngine,
  interrupt,
  "cancel-during-approval": cancelDuringApproval,
  "stored-payload": storedPayload,
  compaction,
  subagent,
  background,
  "background-limits": backgroundLimits,
  "cancel-background-join": cancelBackgroundJoin,
  middleware,
  budget,
  mcp,
  fork,
  "tool-fork": toolFork,
  "fewer-turn-commands": fewerTurnCommands,
};

const ACTIVITY_ENDS = [
  "activityTaskCompletedEventAttributes",
  "activityTaskFailedEventAttributes",
  "activityTaskCanceledEventAttributes",
  "activityTaskTimedOutEventAttributes",
] as const;

async function waitForActivityEnd(client: AgentClient, sessionId: string): Promise<void> {
  await waitFor(async () => {
    const history = await client.session(sessionId).workflow.fetchHistory();
    const cancelled = history.events?.find((event) => event.activityTaskCancelRequestedEventAttributes);
    const scheduled = cancelled?.activityTaskCancelRequestedEventAttributes?.scheduledEventId;
    return (history.events ?? []).some((event) =>
      ACTIVITY_ENDS.some((key) => {
        const attributes = event[key];
        return attributes != null && String(attributes.scheduledEventId) === String(scheduled);
      }),
    );
  }, "the cancelled tool activity to end");
}
