/**
 * A tiny CommonJS program, run as `node -e WATCHDOG_SCRIPT <graceMs> <file> <args...>`, that owns the server
 * process. It exists because nothing inside a Node process runs when that process is SIGKILLed: the watchdog
 * notices its parent is gone when its stdin pipe reaches EOF and stops the server, so no server outlives the
 * program that started it. It forwards SIGTERM/SIGINT/SIGHUP, escalates to SIGKILL after the grace period,
 * and exits with the server's exit code. It is inline JavaScript so it runs the same from `src` (TypeScript,
 * under a test runner) and from `dist`.
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
