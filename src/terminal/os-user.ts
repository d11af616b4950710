import { userInfo } from "node:os";

/** The login name of the user at this terminal, or undefined where the system has none (a container's uid). */
export function osUserName(): string | undefined {
  try {
    return userInfo().username.trim() || undefined;
  } catch {
    return undefined;
  }
}
