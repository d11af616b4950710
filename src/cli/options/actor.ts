import { osUserName } from "../../terminal/os-user.js";
import { CliError } from "../cli-error.js";

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
