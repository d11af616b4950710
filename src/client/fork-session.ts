import { randomUUID } from "node:crypto";
import { AgentError } from "../kernel/vocabulary/errors.js";
import { SessionError } from "./client-errors.js";
import type { ForkOrigin } from "../contract/session-input.js";
import type { ClientContext } from "./client-context.js";
import { sessionCall } from "./session-call.js";

/** Options of `SessionHandle.fork`. */
export interface SessionForkOptions {
  /** The turn of the source session (counted across its runs, from 1) whose end state the fork starts with. */
  atTurn: number;
  /** The new session's id. Default: a new id. */
  newSessionId?: string;
  /** The agent the fork runs (default the source session's): compare agents on a real conversation. */
  agent?: string;
  /** The model the fork's runs use instead of the agent's (the workers must have a provider for it). */
  model?: string;
  /**
   * The workflow-safe modules of the source agent's own middleware (`defineMiddleware`), which reading its history
   * replays: the same modules its workers bundle (`workflowModulesOf(agents)` lists them). Not needed for agents
   * whose middleware are built-ins; when needed and missing, the fork is refused with a message that says so.
   */
  workflowModules?: string[];
}

/** A session made by `SessionHandle.fork`. */
export interface ForkedSession {
  sessionId: string;
  agent: string;
  forkedFrom: ForkOrigin;
  /** How many messages its conversation starts with. */
  messageCount: number;
}

/** Forks session `sessionId` at the end of turn `atTurn` (see `SessionHandle.fork`). */
export async function forkSession(
  client: ClientContext,
  sessionId: string,
  options: SessionForkOptions,
): Promise<ForkedSession> {
  const { atTurn } = options;
  if (!Number.isInteger(atTurn) || atTurn < 1)
    throw new AgentError(`fork: 'atTurn' must be a whole number of 1 or more (got ${String(atTurn)})`);
  const point = await sessionCall(sessionId, "fork", () => forkPoint(client, sessionId, options));
  const agent = options.agent ?? point.agent;
  const newSessionId = options.newSessionId ?? `session-${randomUUID()}`;
  const forkedFrom = { sessionId, turn: atTurn };
  await client.launcher.startIdle({
    sessionId: newSessionId,
    agent,
    seed: point.messages,
    forkedFrom,
    ...(options.model ? { model: options.model } : {}),
  });
  return { sessionId: newSessionId, agent, forkedFrom, messageCount: point.messages.length };
}

/** The source's conversation at the end of the turn, read by replaying its history; a bad turn is rejected. */
async function forkPoint(client: ClientContext, sessionId: string, options: SessionForkOptions) {
  const { conversationAtTurn, ForkPointError } = await import("./events/conversation-at-turn.js");
  return conversationAtTurn(client.temporal, sessionId, options.atTurn, {
    dataConverter: client.temporal.options.dataConverter,
    workflowModules: options.workflowModules ?? client.workflowModules ?? [],
  }).catch((error: unknown) => {
    if (!(error instanceof ForkPointError)) throw error;
    throw new SessionError(`fork: ${error.message}`, sessionId, "rejected", { operation: "fork" });
  });
}
