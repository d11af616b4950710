import type { AgentEvent } from "../../kernel/vocabulary/events.js";

/** An AgentError as plain data, so it survives Temporal payloads. */
export interface WireError {
  name: string;
  message: string;
  status?: number;
}

/** An AgentEvent as plain data: the error of an `error` event becomes a WireError. */
export type WireEvent =
  | Exclude<AgentEvent, { type: "error" }>
  | ({ type: "error"; error: WireError; fatal: boolean } & Pick<AgentEvent, "agentId" | "forkId">);
