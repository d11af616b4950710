import type { Sinks } from "@temporalio/workflow";
import type { Message } from "../kernel/vocabulary/messages.js";

/**
 * The replay name (and so the task-queue prefix) of the replayer that reads a session's conversation at the end of a
 * turn (`session.fork`). The session workflow reports each turn's end only on a replay under this name: workers never
 * pay for it.
 */
export const FORK_CAPTURE_REPLAY = "lite-agent-fork-capture";

/** The sink through which a replayed session reports the end of each of its turns to the fork reader. */
export interface ForkCaptureSinks extends Sinks {
  liteAgentForkCapture: {
    /** Turn `turn` of the session (counted across its runs) ended with this conversation. */
    turnEnded(agent: string, turn: number, messages: Message[]): void;
  };
}
