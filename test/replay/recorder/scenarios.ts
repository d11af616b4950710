import type { AgentClient, DurableEvent } from "../../../src/client.js";
import type { RunResult } from "../../../src/kernel/events.js";
import type { RecorderGates } from "./recorder-kit.js";
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
  await client.steer(sessionId, "Answer in millimetres.", { id: "steer-1" });
  await client.followUp(sessionId, "Now say it in one line.", { id: "follow-up-1" });
  gates.holdRelease.open();
  const events = await expectEnd(
    client.events(sessionId, started.runId, { fromOffset: started.offset }),
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
  await client.cancel(sessionId, { reason: "recorder cancels" });
  await expectEnd(client.events(sessionId, started.runId, { fromOffset: started.offset }), "aborted");
  // The tool has seen the cancel on the worker; its activity's end is in history before the next run starts.
  await gates.slowExited.opened;
  await waitForActivityEnd(client, sessionId);
  await expectEnd(client.run(agent, "Start over.", { sessionId }), "stop");
};

const continueAsNew: Scenario = async ({ client, sessionId }) => {
  const agent = agentOf("continue-as-new");
  await expectEnd(client.run(agent, "First.", { sessionId }), "stop");
  const first = (await client.handle(sessionId).describe()).runId;
  await expectEnd(client.run(agent, "Second: 1+2?", { sessionId }), "stop");
  await waitFor(
    async () => (await client.handle(sessionId).describe()).runId !== first,
    "the session to continue as new",
  );
  await expectEnd(client.run(agent, "Third.", { sessionId }), "stop");
};

const providerError: Scenario = async ({ client, sessionId }) => {
  await expectEnd(client.run(agentOf("provider-error"), "Say something.", { sessionId }), "error");
};

const closed: Scenario = async ({ client, sessionId }) => {
  await expectEnd(client.run(agentOf("closed"), "4+4, then we are done.", { sessionId }), "stop");
  await client.closeSession(sessionId);
  await client.handle(sessionId).result();
};

/** The scenario implementations, by the names of SCENARIOS. */
export const SCENARIO_RUNNERS: Readonly<Record<string, Scenario>> = {
  "tool-loop": toolLoop,
  "steer-follow-up": steerFollowUp,
  cancel,
  "continue-as-new": continueAsNew,
  "provider-error": providerError,
  closed,
};

const ACTIVITY_ENDS = [
  "activityTaskCompletedEventAttributes",
  "activityTaskFailedEventAttributes",
  "activityTaskCanceledEventAttributes",
  "activityTaskTimedOutEventAttributes",
] as const;

async function waitForActivityEnd(client: AgentClient, sessionId: string): Promise<void> {
  await waitFor(async () => {
    const history = await client.handle(sessionId).fetchHistory();
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
