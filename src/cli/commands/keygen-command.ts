import path from "node:path";
import { chmod, writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { generateApproverKey } from "../../client/decision-signer.js";
import { CliError } from "../cli-error.js";
import { commandAction, type CliRuntime } from "../command-action.js";
import type { CliScope } from "../cli-scope.js";
import { resolveActor } from "../options/actor.js";
import { ACTOR_DEFAULT } from "../options/responder-options.js";
import { APPROVER_KEY_FILE_ENV } from "../options/approver-key.js";

interface KeygenOptions {
  actor?: string;
  id?: string;
  out?: string;
}

async function keygen(scope: CliScope, _args: [], options: KeygenOptions): Promise<number> {
  const actor = resolveActor(options.actor, scope.io.env);
  const keyId = options.id?.trim() || `${actor}-${new Date().toISOString().slice(0, 10)}`;
  const file = path.resolve(scope.io.cwd, options.out ?? `${keyId}.key.json`);
  const key = generateApproverKey(keyId, actor);
  // `wx`: never overwrite a key someone may still sign with; 0600: the private key is the approver's alone.
  await writeFile(file, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600, flag: "wx" }).catch(
    (error: NodeJS.ErrnoException) => {
      throw new CliError(
        error.code === "EEXIST"
          ? `${file} exists: choose another --out`
          : `cannot write ${file}: ${error.message}`,
      );
    },
  );
  await chmod(file, 0o600);
  const declared = JSON.stringify({ id: keyId, actor, publicKey: key.publicKey });
  scope.io.stdout(
    [
      `wrote ${actor}'s private key ${keyId} to ${file} (mode 0600): it stays with ${actor}`,
      `public key: ${key.publicKey}`,
      "",
      "declare it in the agent's permission settings (deployed with the worker):",
      `  approverKeys: [${declared}],`,
      `and require signed decisions on a rule: { tools: "...", actors: ["${actor}"], requireSignature: true }`,
      "",
      `sign with: lite-agent approve <session> <callId> --key-file ${file}  (or ${APPROVER_KEY_FILE_ENV}=${file})`,
      "",
    ].join("\n"),
  );
  return 0;
}

/** `lite-agent keygen`: writes an approver's Ed25519 key pair and prints what to declare in the agent. */
export function registerKeygenCommand(program: Command, runtime: CliRuntime): void {
  program
    .command("keygen")
    .description("write an approver's signing key (Ed25519) and print the public key to declare in the agent")
    .option("--actor <name>", `whose key (${ACTOR_DEFAULT})`)
    .option("--id <keyId>", "the key's id (default <actor>-<today>)")
    .option("--out <path>", "where to write the private key (default ./<keyId>.key.json; never overwritten)")
    .action(commandAction<[], KeygenOptions>(runtime, keygen));
}
