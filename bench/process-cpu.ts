import { readFileSync, readdirSync } from "node:fs";

/** Linux's clock ticks per second for /proc CPU times (`getconf CLK_TCK`; 100 on every common platform). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, ms) a process and all its threads used so far, from /proc; 0 when it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at the closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The sum of {@link processCpuMs} over processes. */
export function totalCpuMs(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}

/**
 * The processes of a Temporal dev server listening on `address` (host:port), found by their command line; empty
 * when none is found on this machine (an external server), so its CPU is then not measured.
 */
export function temporalServerPids(address: string): number[] {
  const port = address.slice(address.lastIndexOf(":") + 1);
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    const serves =
      args.includes("start-dev") && args.some((arg, index) => arg === port && args[index - 1] === "--port");
    if (serves) pids.push(Number(entry));
  }
  return pids;
}
