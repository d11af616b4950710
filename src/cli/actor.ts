import { userInfo } from "node:os";
import { CliError } from "./cli-error.js";

/** The login name of the user running the CLI, or undefined where the system has none (a container's uid). */
export function osUserName(): string | undefined {
  try {
    return userInfo().username.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who decides and answers from this terminal, recorded with each decision: `--actor`, else `LITE_AGENT_ACTOR`,
 * else the OS user. Never a made-up name: a history that says "cli" approved something tells an auditor nothing.
 */
export function resolveActor(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  osUser: () => string | undefined = osUserName,
): string {
  const actor = flag?.trim() || env.LITE_AGENT_ACTOR?.trim() || osUser();
  if (actor) return actor;
  throw new CliError(
    "cannot tell who is deciding (no OS user name): pass --actor <name> or set LITE_AGENT_ACTOR",
  );
}
