import { WorkflowUpdateFailedError } from "@temporalio/client";
import { ApplicationFailure, WorkflowNotFoundError } from "@temporalio/common";
import { describe, expect, it } from "vitest";
import { CliError } from "../../../src/cli/cli-error.js";
import { inCommandTerms } from "../../../src/cli/options/command-terms.js";
import { sessionBuild } from "../../../src/cli/session-build.js";
import { SessionError, toSessionError, withoutHandlerName } from "../../../src/client/client-errors.js";

/** A rejection the way the client receives it from the session workflow's validator. */
function rejected(message: string): WorkflowUpdateFailedError {
  return new WorkflowUpdateFailedError("update failed", ApplicationFailure.create({ message }));
}

describe("session errors in the user's words", () => {
  it("drops the workflow handler name from a rejection (decideToolCall, answerQuestion...)", () => {
    expect(withoutHandlerName("decideToolCall: no pending approval for call 'c1'")).toBe(
      "no pending approval for call 'c1'",
    );
    expect(withoutHandlerName("answerQuestion: no pending question")).toBe("no pending question");
    expect(withoutHandlerName("approve: kept, not a handler name")).toBe("approve: kept, not a handler name");
    const error = toSessionError(rejected("decideToolCall: already settled"), "s1", "approve");
    expect(error).toBeInstanceOf(SessionError);
    expect(error.message).toBe("approve rejected: already settled");
    expect((error as SessionError).operation).toBe("approve");
  });

  it("names a failed operation after the command typed: describe under `show` is `show`", async () => {
    const notFound = toSessionError(new WorkflowNotFoundError("nope", "s1", undefined), "s1", "describe");
    expect(notFound.message).toBe("describe: session 's1' not found");
    const shown = await inCommandTerms(notFound, "show");
    expect(shown).toBeInstanceOf(CliError);
    expect((shown as CliError).message).toBe("show: session 's1' not found");
    const started = toSessionError(rejected("queueSteer: the message is too long"), "s1", "start run");
    expect(((await inCommandTerms(started, "run")) as Error).message).toBe(
      "run rejected: the message is too long",
    );
  });

  it("a missing session fails the build's describe as the status's: `show` says one thing, whichever is first", async () => {
    const handle = {
      workflowId: "s1",
      describe: () =>
        Promise.reject(new WorkflowNotFoundError("workflow not found for ID: s1", "s1", undefined)),
    } as unknown as Parameters<typeof sessionBuild>[0];
    const failure = await sessionBuild(handle).catch((error: unknown) => error);
    expect(((await inCommandTerms(failure, "show")) as Error).message).toBe("show: session 's1' not found");
  });

  it("leaves other errors as they are", async () => {
    const plain = new Error("boom");
    expect(await inCommandTerms(plain, "show")).toBe(plain);
    const unnamed = new SessionError("session 's1' ended early", "s1", "closed");
    expect(await inCommandTerms(unnamed, "watch")).toBe(unnamed);
  });
});
