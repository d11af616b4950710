import { AgentError } from "../kernel/vocabulary/errors.js";

/** The file extension of a session log. */
export const SESSION_LOG_SUFFIX = ".jsonl";

/**
 * The file name of a session's log, `<id>.jsonl`. Ids are used verbatim so `list()` gives them back unchanged, which
 * means an id that could leave the directory (a path separator, `..`) or is empty is rejected rather than rewritten.
 */
export function sessionFileName(sessionId: string): string {
  const problem = sessionIdProblem(sessionId);
  if (problem) throw new AgentError(`Invalid session id ${JSON.stringify(sessionId)}: ${problem}`);
  return sessionId + SESSION_LOG_SUFFIX;
}

function sessionIdProblem(sessionId: unknown): string | undefined {
  if (typeof sessionId !== "string" || sessionId.length === 0) return "it must be a non-empty string";
  if (/[/\\]/.test(sessionId)) return "it must not contain a path separator";
  if (sessionId.includes("..")) return 'it must not contain ".."';
  if (sessionId.includes("\0")) return "it must not contain a NUL character";
  return undefined;
}
