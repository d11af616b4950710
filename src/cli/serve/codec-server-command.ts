import { Option, type Command } from "commander";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { CliError, usageError } from "../cli-error.js";
import { parseCommaList, parsePort } from "../options/parse-options.js";

/** The Temporal UI of `lite-agent dev` (and of `temporal server start-dev`), as a browser names its origin. */
export const DEV_UI_ORIGINS = ["http://localhost:8233", "http://127.0.0.1:8233"] as const;

interface CodecServerOptions {
  port: number;
  host: string;
  origin: string[];
  token?: string;
  insecureNoToken?: boolean;
}

/** The variable `--token` falls back to. */
const TOKEN_ENV = "LITE_AGENT_CODEC_TOKEN";

type CodecAccess = { token: string } | { insecureNoToken: true };

/** The token from `--token` or {@link TOKEN_ENV}, or the explicit insecure choice; a usage error otherwise. */
function codecAccess(options: CodecServerOptions, env: NodeJS.ProcessEnv): CodecAccess {
  const token = (options.token ?? env[TOKEN_ENV])?.trim() || undefined;
  if (token && options.insecureNoToken)
    throw usageError(
      `--insecure-no-token contradicts the token from --token or ${TOKEN_ENV}: pass one of them`,
    );
  if (token) return { token };
  if (options.insecureNoToken) return { insecureNoToken: true };
  throw usageError(
    `no token: pass --token <token> or set ${TOKEN_ENV} (or --insecure-no-token, for local development only)`,
  );
}

/** The warning of `--insecure-no-token`: who can now read what. */
function insecureWarning(url: string): string {
  return `WARNING: --insecure-no-token: anything that reaches ${url} without a browser Origin (any local process, curl) can decrypt every payload. Local development only; pass --token otherwise.`;
}

async function codecServer(scope: CliScope, options: CodecServerOptions): Promise<number> {
  // Checked before anything loads: a misused command line answers at once.
  const access = codecAccess(options, scope.io.env);
  const [{ encryptionKeyRingFromEnv, AesGcmPayloadCodec }, { startCodecServer }, { serverInterrupts }] =
    await Promise.all([
      import("../../encryption/index.js"),
      import("../../codec-server/index.js"),
      import("./serve-worker.js"),
    ]);
  let ring;
  try {
    ring = encryptionKeyRingFromEnv(scope.io.env);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  if (!ring)
    throw new CliError(
      "no encryption keys: set LITE_AGENT_ENCRYPTION_KEYS (or LITE_AGENT_ENCRYPTION_KEY_FILE) as for the workers",
    );
  const interrupts = serverInterrupts(scope);
  try {
    const server = await startCodecServer({
      codec: new AesGcmPayloadCodec(ring),
      origins: options.origin,
      port: options.port,
      host: options.host,
      ...access,
      log: (line) => scope.note(scope.style.dim(line)),
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE")
        throw new CliError(`port ${options.port} is already in use: choose another with --port`);
      throw new CliError(error.message);
    });
    const keys = [...ring.keys.keys()].join(", ");
    scope.io.stdout(`Codec server: ${server.url} (keys ${keys}; encrypts with ${ring.currentKeyId})\n`);
    scope.io.stdout(`Allowed UI origins: ${options.origin.join(", ")}\n`);
    if ("token" in access) scope.io.stdout("Requests must carry 'Authorization: Bearer <token>'.\n");
    else scope.note(scope.style.bold(scope.style.red(insecureWarning(server.url))));
    scope.io.stdout(
      `Point the UI at it: temporal server start-dev --ui-codec-endpoint ${server.url}, or the UI's "Codec Server" setting.\n`,
    );
    scope.io.stdout(scope.style.dim("Press Ctrl-C to stop.\n"));
    await new Promise<void>((resolve) => {
      if (interrupts.signal.aborted) resolve();
      interrupts.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await server.close();
    scope.note("Codec server stopped.");
    return 0;
  } finally {
    interrupts.dispose();
  }
}

/** `lite-agent codec-server`: decodes encrypted payloads for the Temporal UI and CLI (remote codec protocol). */
export function registerCodecServerCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("codec-server")
    .description(
      "serve Temporal's remote codec protocol with the encryption keys, so the Temporal UI shows payloads decrypted",
    )
    .addOption(new Option("--port <port>", "port to listen on").argParser(parsePort).default(8888))
    .option("--host <ip>", "interface to bind", "127.0.0.1")
    .addOption(
      new Option("--origin <origins>", "the Temporal UI origin(s) allowed to call it, comma-separated")
        .argParser(parseCommaList)
        .default([...DEV_UI_ORIGINS], DEV_UI_ORIGINS.join(",")),
    )
    .option(
      "--token <token>",
      `require 'Authorization: Bearer <token>' on every request (or set ${TOKEN_ENV})`,
    )
    .option(
      "--insecure-no-token",
      "no token: any local process can decrypt payloads (local development only; the UI forwards no token of ours)",
    )
    .action(
      commandAction<[], CodecServerOptions>(runtime, (scope, _args, options) => codecServer(scope, options)),
    );
}
