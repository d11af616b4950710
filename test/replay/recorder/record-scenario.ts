import { randomUUID } from "node:crypto";
import type { AgentClient } from "../../../src/client.js";
import { storedPayloadReferences } from "../history-events.js";
import type { History } from "../history-files.js";
import type { ScenarioSpec } from "../scenario-catalog.js";
import { exportChain } from "./export-history.js";
import type { RecorderGates } from "./recorder-kit.js";
import { SCENARIO_RUNNERS } from "./scenarios.js";
import { withTimeout } from "./wait-for.js";

/** Each scenario takes about a second; a minute means it is stuck (e.g. a workflow task failing over and over). */
const SCENARIO_TIMEOUT_MS = 60_000;

/** The histories of one scenario, one per execution of its session, oldest first. */
export interface RecordedScenario {
  spec: ScenarioSpec;
  sessionId: string;
  histories: History[];
}

/**
 * Plays a scenario in a new session, exports every execution of the session and checks that the histories
 * exercise the branch the scenario is for, so a recording that went wrong is never written.
 */
export async function recordScenario(
  spec: ScenarioSpec,
  client: AgentClient,
  gates: RecorderGates,
): Promise<RecordedScenario> {
  const runner = SCENARIO_RUNNERS[spec.name];
  if (!runner) throw new Error(`no runner for scenario '${spec.name}'`);
  // Unique per recording: a reused id would land in a session left open by an earlier recording.
  const sessionId = `replay-${spec.name}-${randomUUID().slice(0, 8)}`;
  await withTimeout(
    runner({ client, sessionId, gates }),
    SCENARIO_TIMEOUT_MS,
    `scenario ${spec.name} (session ${sessionId})`,
  );
  const histories = await exportChain(client.temporal, sessionId);
  if (histories.length !== spec.executions) {
    const sizes = histories.map((history) => history.events?.length ?? 0).join(", ");
    throw new Error(
      `${spec.name}: recorded ${histories.length} executions (${sizes} events), expected ${spec.executions}`,
    );
  }
  if (!spec.exercised(histories)) throw new Error(`${spec.name}: the histories do not show ${spec.shows}`);
  const references = histories.flatMap((history) => storedPayloadReferences(history));
  if (!spec.storesPayloads && references.length > 0) {
    throw new Error(
      `${spec.name}: the histories reference stored payloads (${references.map((item) => item.place).join(", ")}); ` +
        "only a scenario marked storesPayloads may",
    );
  }
  return { spec, sessionId, histories };
}
