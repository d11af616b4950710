/** The workflow bundle's entry: every workflow type the worker registers. */
export { agentSession } from "./session/agent-session.js";
