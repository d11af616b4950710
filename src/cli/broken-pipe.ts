/**
 * Ends the process quietly when whoever reads its output has gone (`lite-agent list | head -1`): a write to a closed
 * pipe fails with EPIPE, which would otherwise crash the command with a stack trace. Other stream errors still throw.
 */
export function exitQuietlyOnBrokenPipe(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}
