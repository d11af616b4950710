import type { StopReason } from "../kernel/vocabulary/events.js";

/** The CLI's exit codes. */
export const EXIT = {
  ok: 0,
  /** A failed run, a rejected request, an unreachable server. */
  failure: 1,
  /** The command line was wrong: unknown command or option, a missing or malformed argument. */
  usage: 2,
  /** 128 + SIGINT: cut short by Ctrl-C, or a run that ended aborted (cancelled). */
  aborted: 130,
} as const;

/** The exit code of a command that followed a run to its end. */
export function exitCodeForStop(reason: StopReason): number {
  switch (reason) {
    case "stop":
      return EXIT.ok;
    case "aborted":
      return EXIT.aborted;
    default:
      return EXIT.failure;
  }
}
