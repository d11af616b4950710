import { runCommand } from "../run-command.js";

const cache = new Map<string, Promise<ReadonlySet<string>>>();

/**
 * The long flags `temporal server start-dev --help` lists for this binary, cached per path. Lets one start
 * command work with the pinned CLI and with older ones found on PATH.
 */
export function probeStartDevFlags(binary: string): Promise<ReadonlySet<string>> {
  let flags = cache.get(binary);
  if (flags === undefined) {
    flags = runCommand({ file: binary, args: ["server", "start-dev", "--help"] }, 30_000, 100_000).then(
      (result) => new Set(result.output.match(/--[a-z][a-z0-9-]*/g) ?? []),
    );
    cache.set(binary, flags);
  }
  return flags;
}
