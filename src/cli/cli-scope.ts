import type { Command } from "commander";
import type { AgentClient } from "../client.js";
import { errorMessage } from "../kernel/vocabulary/errors.js";
import { terminalStyle, type TerminalStyle } from "../terminal/terminal-style.js";
import { CliError } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import { readGlobalOptions, type GlobalOptions } from "./options/global-options.js";

/** What one command works with: io, the global options, and a client connected on first use. */
export interface CliScope {
  io: CliIo;
  globals: GlobalOptions;
  style: TerminalStyle;
  /** The command's client, connected on first call; closed when the command ends. */
  client(): Promise<AgentClient>;
  /** A dim note on stderr. */
  note(line: string): void;
}

/** A scope and the function that releases what it opened. */
export interface OpenScope {
  scope: CliScope;
  close(): Promise<void>;
}

/** Connects a client, turning connection failures into one clear line. */
async function connect(globals: GlobalOptions): Promise<AgentClient> {
  // Loaded on first use, like every heavy module of the CLI: `--help` and misuse answer at once.
  const [{ AgentClient }, { resolveEncryptionCodec, KeylessPayloadCodec }] = await Promise.all([
    import("../client.js"),
    import("../encryption/index.js"),
  ]);
  // Without keys, an encrypted payload fails naming its key and how to supply keys (not `Unknown encoding`).
  const encryption = resolveEncryptionCodec(undefined) ?? new KeylessPayloadCodec();
  try {
    return await AgentClient.connect({
      address: globals.address,
      namespace: globals.namespace,
      taskQueue: globals.taskQueue,
      encryption,
    });
  } catch (error) {
    const { connectionTarget } = await import("./connection-target.js");
    const where = connectionTarget(globals);
    throw new CliError(
      `cannot reach the Temporal server at ${where}: ${errorMessage(error)}. Start one with 'lite-agent dev', or pass --address.`,
    );
  }
}

/** Opens the scope of a command. */
export function openScope(io: CliIo, command: Command): OpenScope {
  const globals = readGlobalOptions(command);
  const style = terminalStyle(io.color);
  let connecting: Promise<AgentClient> | undefined;
  const scope: CliScope = {
    io,
    globals,
    style,
    client: () => (connecting ??= connect(globals)),
    note: (line) => io.stderr(`${line}\n`),
  };
  const close = async () => {
    const client = await connecting?.catch(() => undefined);
    await client?.close().catch(() => undefined);
  };
  return { scope, close };
}
