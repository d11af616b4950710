import {
  AbortError,
  AgentError,
  type CheckpointConflictError,
  CodecError,
  MaxTurnsError,
  ProviderError,
  ToolError,
} from "../kernel/vocabulary/errors.js";
import type { AgentEvent } from "../kernel/vocabulary/events.js";
import type { WireError, WireEvent } from "../contract/stream/wire-event.js";

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
