import { undecodableReason } from "./lenient-payload-converter.js";
import type {
  CancelRunRequest,
  InterruptRequest,
  StartRunRequest,
  SteerRequest,
} from "../../contract/requests.js";

/** Why a payload is malformed, or undefined when it is well formed. Shared by update validators and signals. */
export type PayloadProblem = string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function isMessage(value: unknown): boolean {
  if (!isObject(value)) return false;
  const roleOk =
    value.role === "user" || value.role === "assistant" || value.role === "system" || value.role === "tool";
  return roleOk && (typeof value.content === "string" || Array.isArray(value.content));
}

/** A fork id becomes part of a workflow id (`<session>/<forkId>`): a short plain name. */
const FORK_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Checks a tool's request for a fork (`startFork`). */
export function checkForkRequest(request: unknown): PayloadProblem {
  if (!isObject(request)) return undecodableReason(request) ?? "expected {callId, input, forkId, tools?}";
  const { callId, input, forkId, tools } = request;
  if (typeof callId !== "string" || typeof input !== "string") return "'callId' and 'input' must be strings";
  if (typeof forkId !== "string" || !FORK_ID.test(forkId))
    return "'forkId' must be 1-100 letters, digits, '.', '_' or '-'";
  if (tools !== undefined && (!Array.isArray(tools) || !tools.every((name) => typeof name === "string")))
    return "'tools' must be a list of tool names";
  return undefined;
}

/** Checks a run request. */
export function checkStartRun(request: unknown): PayloadProblem {
  const undecodable = undecodableReason(request);
  if (undecodable) return `startRun: ${undecodable}`;
  if (!isObject(request)) return "startRun expects an object {agent, input}";
  const { agent, input, runId, images } = request as Partial<StartRunRequest>;
  if (typeof agent !== "string" || agent === "") return "startRun: 'agent' must be a non-empty string";
  if (runId !== undefined && (typeof runId !== "string" || runId === ""))
    return "startRun: 'runId' must be a non-empty string";
  if (typeof input === "string") {
    if (input.trim() === "" && !images?.length) return "startRun: 'input' must not be empty";
  } else if (!Array.isArray(input) || input.length === 0 || !input.every(isMessage)) {
    return "startRun: 'input' must be a string or a non-empty array of {role, content} messages";
  }
  if (
    images !== undefined &&
    (!Array.isArray(images) || !images.every((image) => isObject(image) && image.type === "image"))
  ) {
    return "startRun: 'images' must be an array of image blocks";
  }
  return undefined;
}

/** Checks a steer or follow-up. */
export function checkSteer(request: unknown): PayloadProblem {
  const undecodable = undecodableReason(request);
  if (undecodable) return undecodable;
  if (!isObject(request)) return "expected an object {id, content}";
  const { id, content } = request as Partial<SteerRequest>;
  if (typeof id !== "string" || id === "") return "'id' must be a non-empty string";
  if (typeof content === "string") return content.trim() === "" ? "'content' must not be empty" : undefined;
  return isMessage(content) ? undefined : "'content' must be a string or a {role, content} message";
}

/** Checks a cancel request. */
export function checkCancel(request: unknown): PayloadProblem {
  if (request === undefined || request === null) return undefined;
  const undecodable = undecodableReason(request);
  if (undecodable) return undecodable;
  if (!isObject(request)) return "expected an object {runId?, reason?}";
  const { runId } = request as CancelRunRequest;
  return runId !== undefined && typeof runId !== "string" ? "'runId' must be a string" : undefined;
}

/** Checks an interrupt (its message is optional). */
export function checkInterrupt(request: unknown): PayloadProblem {
  if (request === undefined || request === null) return undefined;
  const undecodable = undecodableReason(request);
  if (undecodable) return undecodable;
  if (!isObject(request)) return "expected an object {id?, content?}";
  const { id, content } = request as InterruptRequest;
  if (id !== undefined && (typeof id !== "string" || id === "")) return "'id' must be a non-empty string";
  if (content !== undefined && (typeof content !== "string" || content.trim() === ""))
    return "'content' must be a non-empty string";
  return undefined;
}

/**
 * Checks the session workflow's own input (someone may start one by hand, from the UI or the Temporal CLI): a
 * session needs its id and agent; the rest is optional.
 */
export function checkSessionInput(input: unknown): PayloadProblem {
  const undecodable = undecodableReason(input);
  if (undecodable) return undecodable;
  if (!isObject(input)) return "expected an object {sessionId, agent}";
  if (typeof input.sessionId !== "string" || input.sessionId === "")
    return "'sessionId' must be a non-empty string";
  if (typeof input.agent !== "string" || input.agent === "") return "'agent' must be a non-empty string";
  return checkForkInput(input);
}

/** Checks what a forked session starts with: its conversation, its origin and its model. */
function checkForkInput(input: Record<string, unknown>): PayloadProblem {
  const { seed, forkedFrom, model } = input;
  if (seed !== undefined && (!Array.isArray(seed) || !seed.every(isMessage)))
    return "'seed' must be an array of {role, content} messages";
  if (
    forkedFrom !== undefined &&
    (!isObject(forkedFrom) ||
      typeof forkedFrom.sessionId !== "string" ||
      !Number.isInteger(forkedFrom.turn) ||
      (forkedFrom.turn as number) < 1)
  )
    return "'forkedFrom' must be {sessionId, turn} with a turn of 1 or more";
  if (model !== undefined && (typeof model !== "string" || model === ""))
    return "'model' must be a non-empty string";
  return undefined;
}
