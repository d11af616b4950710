import {
  AbortError,
  AgentError,
  type CheckpointConflictError,
  CodecError,
  MaxTurnsError,
  ProviderError,
  ToolError,
} from "../kernel/errors.js";
import type { AgentEvent } from "../kernel/events.js";

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

/** One entry of a session's event stream. */
export interface StreamEntry {
  runId: string;
  event: WireEvent;
  /**
   * On `model_call_start` and `model_call_end` of durable runs: the number of the model call in its run (live
   * output is keyed `<runId>:<n>`), so readers pair a call's output with its events without counting them.
   */
  modelCall?: number;
  /**
   * `false` on the model call events of a call that streams no live output (its codec buffers the answer, or its
   * worker has no live-output transport): no end marker will come, so readers do not wait for one. `"session"` when
   * the live output went through Temporal (the model activity's heartbeats, ADR 0019): no end marker comes, and a
   * reader of that transport takes the call's tail from its message. Absent: the live output went where the worker's transport sends it.
   */
  liveOutput?: false | "session";
}

/** The topic of the session stream that carries durable events. */
export const EVENTS_TOPIC = "events";

/** Converts an event for the wire. */
export function toWireEvent(event: AgentEvent): WireEvent {
  if (event.type !== "error") return event;
  const { error, ...rest } = event;
  const wire: WireError = { name: error.name, message: error.message };
  if (error instanceof ProviderError && error.status !== undefined) wire.status = error.status;
  return { ...rest, error: wire };
}

/** Rebuilds an AgentError of the right class from its wire form. */
export function fromWireError(wire: WireError): AgentError {
  switch (wire.name) {
    case "ProviderError":
      return new ProviderError(wire.message, wire.status);
    case "CodecError":
      return new CodecError(wire.message);
    case "ToolError":
      return new ToolError(wire.message);
    case "MaxTurnsError":
      return new MaxTurnsError(wire.message);
    case "AbortError":
      return new AbortError(wire.message);
    case "CheckpointConflictError":
      return Object.assign(new AgentError(wire.message), {
        name: "CheckpointConflictError",
      }) as CheckpointConflictError;
    default:
      return Object.assign(new AgentError(wire.message), { name: wire.name });
  }
}

/** Converts a wire event back into an AgentEvent. */
export function fromWireEvent(event: WireEvent): AgentEvent {
  if (event.type !== "error") return event;
  return { ...event, error: fromWireError(event.error) };
}
