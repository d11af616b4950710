import type { PayloadEncryptionOption } from "../encryption/payload-encryption.js";
import type { ExternalDeltaSource } from "./events/run-event-stream.js";
import type { PayloadStorageOption } from "../storage/payload-storage.js";
import { redisDeltaSource } from "../stream/redis-delta-source.js";
import type { AgentTracing } from "../telemetry/agent-tracing.js";
import type { DecisionSigner } from "./decision-signer.js";

/** Options of an AgentClient. */
export interface AgentClientOptions {
  address?: string;
  namespace?: string;
  /** The base task queue (default `lite-agent`): an agent's sessions run on `<taskQueue>.<agent>`, like the worker's. */
  taskQueue?: string;
  /**
   * How long `start` waits for a worker serving the agent (polling its task queue) before it fails with a
   * `NoWorkerError`. Default 10 s; 0 fails at once; `false` skips the check (the run then waits in the queue).
   */
  workerWaitMs?: number | false;
  /**
   * Keep the sessions' search attributes current (default true). The first start checks that the namespace has
   * them and fails with the commands that create them; false starts sessions that upsert none.
   */
  searchAttributes?: boolean;
  /**
   * Where live model output comes from: the session itself (`"temporal"`, read with the `readStream` query),
   * Redis Streams (`{ redisUrl }`), or `"auto"` (default): Redis when `REDIS_URL` is set, like the worker.
   */
  deltas?: "auto" | "temporal" | { redisUrl: string } | ExternalDeltaSource;
  /**
   * The largest run request `start` sends (JSON bytes); a larger one fails at once with a `RunInputTooLargeError`
   * naming the size and the limit. Default 1 MiB with payloads inline (`RUN_INPUT_LIMIT_BYTES`), 32 MiB with
   * external payload storage (`RUN_INPUT_LIMIT_WITH_STORAGE_BYTES`).
   */
  maxRunInputBytes?: number;
  /**
   * Where large payloads are stored (`connect` only): the same setting as the workers' (default the environment's,
   * `LITE_AGENT_STORAGE`; see docs/operations.md), or the client cannot read what they stored by reference.
   */
  storage?: PayloadStorageOption;
  /**
   * Payload encryption (`connect` only): the same keys as the workers' (default the environment's,
   * `LITE_AGENT_ENCRYPTION_KEYS` / `LITE_AGENT_ENCRYPTION_KEY_FILE`; off when unset), or this client cannot read
   * what they wrote.
   */
  encryption?: PayloadEncryptionOption;
  /**
   * Who this client decides and answers as (`approve`, `deny`, `answer`), unless a call names another actor: the
   * application's signed-in user. Agents with `permission.approvers` refuse decisions from anyone they do not name.
   */
  actor?: string;
  /**
   * Signs this client's decisions and answers with an approver's Ed25519 key (`ed25519Signer`, `signerFromKeyFile`);
   * its actor is the default `actor`. Agents whose approver rules set `requireSignature` refuse unsigned ones.
   */
  signer?: DecisionSigner;
  /**
   * The workflow-safe modules of the agents' own middleware, as the workers bundle them (`workflowModulesOf(agents)`):
   * a reader that fell behind replays the session's history to read missed events, which runs them. Not needed when
   * all middleware are built-ins (a read that needs them fails saying so).
   */
  workflowModules?: string[];

  /**
   * OpenTelemetry tracing of this client's calls (`connect` only): an {@link AgentTracing}, `false` for none, or by
   * default the environment's (`OTEL_EXPORTER_OTLP_ENDPOINT`; see docs/operations.md).
   */
  tracing?: AgentTracing | false;
}

/** The options the AgentClient constructor reads (the rest are `connect`'s). */
export type AgentClientSettings = Pick<
  AgentClientOptions,
  | "taskQueue"
  | "deltas"
  | "workerWaitMs"
  | "searchAttributes"
  | "maxRunInputBytes"
  | "actor"
  | "signer"
  | "workflowModules"
>;

/** The source of live model output that the `deltas` option names; undefined: the session itself. */
export function deltaSource(option: AgentClientOptions["deltas"] = "auto"): ExternalDeltaSource | undefined {
  if (option === "temporal") return undefined;
  if (option === "auto") return process.env.REDIS_URL ? redisDeltaSource(process.env.REDIS_URL) : undefined;
  return "redisUrl" in option ? redisDeltaSource(option.redisUrl) : option;
}
