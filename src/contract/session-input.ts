import type { Message } from "../kernel/vocabulary/messages.js";
import type { Usage } from "../kernel/vocabulary/model.js";
import type { CarriedState } from "./carried-state.js";
import type { RunSummary } from "./run-summary.js";

/** The input of the session workflow. One workflow chain per session; its id is the session id. */
export interface SessionInput {
  sessionId: string;
  agent: string;
  /** Present after continue-as-new. */
  carried?: CarriedState;
  /** Pass model requests inline in activity inputs instead of by reference (benchmark comparison only). */
  inlineRequests?: boolean;
  /** Keep the AgentName/AgentStatus/AgentTurns/AgentTokens search attributes current (default true). */
  searchAttributes?: boolean;
  /**
   * A subagent's session (a child workflow the delegation tool started): it runs this one task as its first run,
   * then closes and returns the run's summary. It gets no delegation tool (one level of subagents).
   */
  task?: SubagentTask;
  /**
   * The conversation a new session starts with (a fork: another session's conversation at the end of one of its
   * turns). Only the first execution reads it; later ones carry the conversation (`carried`), so it is not passed on.
   */
  seed?: Message[];
  /** The session this one was forked from, and at the end of which of its turns (kept across continue-as-new). */
  forkedFrom?: ForkOrigin;
  /** The model the session's runs use instead of the agent's own (a fork onto another model). */
  model?: string;
}

/** Where a forked session comes from: the source session and the turn whose end state it starts with. */
export interface ForkOrigin {
  sessionId: string;
  turn: number;
}

/** The run id of a subagent session's one run. */
export const SUBAGENT_RUN_ID = "task";

/** The task of a subagent's session and where it came from. */
export interface SubagentTask {
  input: string;
  parentSessionId: string;
  forkId: string;
  /**
   * A tool's fork (`ctx.fork`) of the parent's own agent, seeded with the parent's conversation: it runs without
   * the agent's `beforeAgent` hooks (their effects are in the seed), with only the named tools when given.
   */
  fork?: { tools?: string[] };
}

/** What a closed session returns. */
export interface SessionOutcome {
  sessionId: string;
  runsCompleted: number;
  turns: number;
  usage: Usage;
  /** A subagent's session: how its task run ended. */
  task?: RunSummary;
}
