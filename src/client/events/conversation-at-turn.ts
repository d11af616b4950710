import type { Client } from "@temporalio/client";
import type { DataConverter } from "@temporalio/common";
import type { InjectedSinks } from "@temporalio/worker";
import { REPLAYING_A_HISTORY, temporalWorker } from "../../runtime/temporal-worker.js";
import { FORK_CAPTURE_REPLAY, type ForkCaptureSinks } from "../../wire/fork-capture.js";
import { unknownMiddlewareIn } from "../../kernel/middleware/durable-middleware.js";
import type { Message } from "../../kernel/vocabulary/messages.js";
import { sessionExecutionHistories } from "./session-executions.js";
import { loadWorkflowBundle } from "../../worker/workflow-bundle.js";

/** A session's conversation at the end of one of its turns, and what the reader learned on the way. */
export interface TurnState {
  agent: string;
  messages: Message[];
}

/** Why a session's conversation at a turn could not be read. */
export class ForkPointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForkPointError";
  }
}

/** Options of {@link conversationAtTurn}. */
export interface ConversationAtTurnOptions {
  /** The data converter of the session's payloads (payload storage, encryption): the workers'. */
  dataConverter?: DataConverter;
  /** The workflow-safe modules of the agent's own middleware (`defineMiddleware`): the replay runs them. */
  workflowModules?: readonly string[];
}

/**
 * The conversation of a session at the end of turn `turn` (counted across runs), read by replaying each execution's
 * history, oldest first, against the current workflow code, which reports every turn's end with the conversation the
 * kernel then held (compacted, if it was). Nothing runs again. Only turns that ended can be read.
 */
export async function conversationAtTurn(
  client: Client,
  sessionId: string,
  turn: number,
  options: ConversationAtTurnOptions = {},
): Promise<TurnState> {
  const { Worker } = temporalWorker(REPLAYING_A_HISTORY);
  const histories = await sessionExecutionHistories(client, sessionId);
  const workflowBundle = await loadWorkflowBundle({ modules: options.workflowModules ?? [] });
  let found: TurnState | undefined;
  let lastEnded = 0;
  const sinks: InjectedSinks<ForkCaptureSinks> = {
    liteAgentForkCapture: {
      turnEnded: {
        fn: (_info, agent, ended, messages) => {
          lastEnded = Math.max(lastEnded, ended);
          if (ended === turn) found = { agent, messages };
        },
        callDuringReplay: true,
      },
    },
  };
  for (const history of histories) {
    try {
      await Worker.runReplayHistory(
        {
          workflowBundle,
          sinks,
          replayName: FORK_CAPTURE_REPLAY,
          ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
        },
        history,
        sessionId,
      );
    } catch (error) {
      throw missingMiddleware(sessionId, error) ?? error;
    }
    if (found) return found;
  }
  const range = lastEnded === 0 ? "no turn that ended yet" : `turns 1–${lastEnded} that ended`;
  throw new ForkPointError(
    `session '${sessionId}' has ${range}; turn ${turn} is out of range ` +
      "(a turn still running or waiting for a decision cannot be forked)",
  );
}

/** The error to give when a replay failed because the agent's own middleware is not in the replay's code. */
function missingMiddleware(sessionId: string, error: unknown): ForkPointError | undefined {
  const id = unknownMiddlewareIn(error instanceof Error ? error.message : String(error));
  if (id === undefined) return undefined;
  return new ForkPointError(
    `session '${sessionId}' runs middleware '${id}' from a defineMiddleware module, which reading its history ` +
      "replays: pass the modules its workers bundle (the `workflowModules` of session.fork, e.g. workflowModulesOf(agents); " +
      "the CLI's --agents <module>, the module its workers serve)",
  );
}
