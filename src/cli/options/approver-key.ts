import path from "node:path";
import { readFile } from "node:fs/promises";
import { signerFromKeyText, type DecisionSigner } from "../../client/decision-signer.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { resolveActor } from "./actor.js";

/** The environment variables that name an approver's key: a key file's path, or its content (JSON). */
export const APPROVER_KEY_FILE_ENV = "LITE_AGENT_APPROVER_KEY_FILE";
export const APPROVER_KEY_ENV = "LITE_AGENT_APPROVER_KEY";

/** Where `--key-file` defaults from, in every command's help. */
export const KEY_FILE_DEFAULT = `default $${APPROVER_KEY_FILE_ENV}, or the key itself in $${APPROVER_KEY_ENV}; unsigned without`;

/**
 * The signer of a decision from this terminal: `--key-file`, else `LITE_AGENT_APPROVER_KEY_FILE`, else the key
 * file's content in `LITE_AGENT_APPROVER_KEY`; undefined when none is given (the decision goes unsigned).
 */
export async function resolveSigner(
  flag: string | undefined,
  io: CliIo,
): Promise<DecisionSigner | undefined> {
  const file = flag?.trim() || io.env[APPROVER_KEY_FILE_ENV]?.trim();
  try {
    if (file) {
      const text = await readFile(path.resolve(io.cwd, file), "utf8").catch((error: Error) => {
        throw new TypeError(`cannot read key file ${file}: ${error.message}`);
      });
      return signerFromKeyText(text, `key file ${file}`);
    }
    const inline = io.env[APPROVER_KEY_ENV]?.trim();
    return inline ? signerFromKeyText(inline, `$${APPROVER_KEY_ENV}`) : undefined;
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
}

/** Who decides: `--actor`, else the signing key's actor, else as {@link resolveActor} says. */
export function resolveDecider(
  flag: string | undefined,
  signer: DecisionSigner | undefined,
  io: CliIo,
): string {
  return flag?.trim() || signer?.actor || resolveActor(undefined, io.env);
}
