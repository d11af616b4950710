import { CliError } from "../cli-error.js";

/**
 * A failed session operation in the words of the command the user typed: the client names its operations
 * after its methods (`describe: session 'x' not found`), while the user ran `lite-agent show`. Other errors
 * pass through unchanged.
 */
export async function inCommandTerms(error: unknown, command: string): Promise<unknown> {
  if (!(error instanceof Error) || error.name !== "SessionError") return error;
  // Loaded only here: a SessionError means the client, and so this module, is loaded already.
  const { SessionError } = await import("../../client/client-errors.js");
  if (!(error instanceof SessionError) || !error.operation) return error;
  if (!error.message.startsWith(error.operation)) return error;
  return new CliError(`${command}${error.message.slice(error.operation.length)}`);
}
