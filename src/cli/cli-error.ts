import { EXIT } from "./exit-codes.js";

/** A failure the CLI reports as one line (`lite-agent: <message>`) and exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** A misuse of the command line (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}
