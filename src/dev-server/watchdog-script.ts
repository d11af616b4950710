/**
 * A tiny CommonJS program, `node -e WATCHDOG_SCRIPT <graceMs> <file> <args...>`, owning the server process so no
 * server outlives a SIGKILLed parent: it stops the server at stdin EOF, forwards SIGTERM/SIGINT/SIGHUP, escalates to
 * SIGKILL after the grace period and exits with its code. Inline JavaScript, so it runs alike from `src` and `dist`.
 */
export const WATCHDOG_SCRIPT = `"use strict";
const { spawn } = require("node:child_process");
const { constants } = require("node:os");
const [graceText, file, ...args] = process.argv.slice(1);
const server = spawn(file, args, { stdio: ["ignore", "inherit", "inherit"] });
let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.kill("SIGTERM");
  setTimeout(() => server.kill("SIGKILL"), Number(graceText));
}
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, stop);
process.stdin.on("end", stop);
process.stdin.on("error", stop);
process.stdin.resume();
server.on("error", (error) => {
  process.stderr.write("cannot start " + file + ": " + error.message + "\\n");
  process.exit(127);
});
server.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
`;
