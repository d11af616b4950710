import { AgentError } from "../kernel/vocabulary/errors.js";

/**
 * The largest run request (input, images and ids, as JSON bytes) a client sends while payloads travel inline. Temporal
 * refuses payloads over 2 MB, and the workflow also keeps the input in the conversation, passes it to the model and
 * carries it across continue-as-new; 1 MiB leaves room for the rest.
 */
export const RUN_INPUT_LIMIT_BYTES = 1024 * 1024;

/**
 * The limit when the client's data converter has external payload storage (large payloads travel by reference):
 * what bounds it then is the memory of the session's workflow, which holds the conversation.
 */
export const RUN_INPUT_LIMIT_WITH_STORAGE_BYTES = 32 * 1024 * 1024;

/** The default limit of a client: larger with external payload storage. */
export function defaultRunInputLimit(externalStorage: boolean): number {
  return externalStorage ? RUN_INPUT_LIMIT_WITH_STORAGE_BYTES : RUN_INPUT_LIMIT_BYTES;
}

/** A run's input is larger than the client's limit; nothing was sent. */
export class RunInputTooLargeError extends AgentError {
  constructor(
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    const hint =
      limitBytes <= RUN_INPUT_LIMIT_BYTES
        ? "payloads travel inline: turn on external payload storage (docs/operations.md) or send less"
        : "AgentClientOptions.maxRunInputBytes";
    super(`run input is ${megabytes(bytes)}; the limit is ${megabytes(limitBytes)} (${hint})`);
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The size of a run request as it travels (JSON, UTF-8). */
export function runRequestBytes(request: unknown): number {
  return Buffer.byteLength(JSON.stringify(request) ?? "", "utf8");
}

/** Throws a {@link RunInputTooLargeError} naming the size and the limit when the request is too large. */
export function checkRunInputSize(request: unknown, limitBytes: number = RUN_INPUT_LIMIT_BYTES): void {
  const bytes = runRequestBytes(request);
  if (bytes > limitBytes) throw new RunInputTooLargeError(bytes, limitBytes);
}
