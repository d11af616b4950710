import { Option, type Command } from "commander";
import { DEFAULT_TASK_QUEUE } from "../../runtime/connection-config.js";
import { shellQuote } from "../../terminal/shell-quote.js";

/** The options every command takes: where the Temporal server is and which task queue the workers poll. */
export interface GlobalOptions {
  /** `host:port`; undefined: Temporal's environment configuration (default 127.0.0.1:7233). */
  address?: string;
  /** Where `address` came from: the command line or `TEMPORAL_ADDRESS`. */
  addressSource?: "cli" | "env";
  /** Undefined: Temporal's environment configuration (default `default`). */
  namespace?: string;
  taskQueue: string;
  /**
   * How to call the CLI again against the same server, for the commands it prints (`lite-agent --address …`):
   * the connection options given on the command line are repeated, those from the environment are not.
   */
  commandPrefix: string;
}

/** Adds `--address`, `--namespace` and `--task-queue` (with their environment variables) to the program. */
export function addGlobalOptions(program: Command): Command {
  return program
    .addOption(new Option("--address <host:port>", "Temporal server").env("TEMPORAL_ADDRESS"))
    .addOption(new Option("--namespace <name>", "Temporal namespace").env("TEMPORAL_NAMESPACE"))
    .addOption(
      new Option("--task-queue <name>", "task queue of the agent workers")
        .env("LITE_AGENT_TASK_QUEUE")
        .default(DEFAULT_TASK_QUEUE),
    );
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The global options as a command sees them (given before or after the command name). */
export function readGlobalOptions(command: Command): GlobalOptions {
  const values = command.optsWithGlobals<Record<string, unknown>>();
  const address = nonEmpty(values.address);
  const namespace = nonEmpty(values.namespace);
  let prefix = "lite-agent";
  for (const [name, flag, value] of [
    ["address", "--address", address],
    ["namespace", "--namespace", namespace],
  ] as const) {
    if (value !== undefined && command.getOptionValueSourceWithGlobals(name) === "cli")
      prefix += ` ${flag} ${shellQuote(value)}`;
  }
  const source = command.getOptionValueSourceWithGlobals("address");
  const addressSource = source === "cli" ? "cli" : source === "env" ? "env" : undefined;
  return {
    address,
    ...(address !== undefined && addressSource ? { addressSource } : {}),
    namespace,
    taskQueue: nonEmpty(values.taskQueue) ?? DEFAULT_TASK_QUEUE,
    commandPrefix: prefix,
  };
}
