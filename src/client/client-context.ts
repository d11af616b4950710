import type { Client } from "@temporalio/client";
import type { ExternalDeltaSource } from "./events/run-event-stream.js";
import type { SessionLauncher } from "./session-launcher.js";
import type { DecisionSigner } from "./decision-signer.js";

/** What a session handle uses of its client: the connection, the client's settings and its session launcher. */
export interface ClientContext {
  readonly temporal: Client;
  readonly launcher: SessionLauncher;
  /** Who decides and answers when a call names no actor. */
  readonly actor: string | undefined;
  /** Signs decisions and answers, when the client was given a signer. */
  readonly signer: DecisionSigner | undefined;
  /** The workflow-safe modules of the agents' own middleware, for reading (replaying) a session's history. */
  readonly workflowModules: string[] | undefined;
  /** Where live model output comes from when not from the session itself. */
  readonly deltas: ExternalDeltaSource | undefined;
  /** Aborted when the client closes: ends the event streams still being read. */
  readonly closing: AbortSignal;
}
