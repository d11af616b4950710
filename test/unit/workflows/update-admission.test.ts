import { ApplicationFailure } from "@temporalio/workflow";
import { describe, expect, it } from "vitest";
import { SESSION_BUSY } from "../../../src/contract/messages.js";
import { TASK_BOUNDARY_JOB, UpdateAdmission } from "../../../src/workflows/admission/update-admission.js";

/** Whether `admit` refuses the update as busy (any other outcome is a failure of the test). */
function refused(admission: UpdateAdmission, updateId: string): boolean {
  try {
    admission.admit(updateId);
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).type).toBe(SESSION_BUSY);
    expect((error as ApplicationFailure).nonRetryable).toBe(false);
    return true;
  }
}

describe("UpdateAdmission: an update is accepted only into a workflow task that holds nothing else", () => {
  it("takes an update that comes with the start, in the start's activation, and only one", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow", "doUpdate", "doUpdate"], false);
    expect(refused(admission, "start")).toBe(false);
    expect(refused(admission, "second")).toBe(true);
  });

  it("refuses an update in an activation that also resolves an activity or fires a timer", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow"], false);
    admission.observe(["resolveActivity", "fireTimer", "doUpdate"], false);
    expect(refused(admission, "u1")).toBe(true);
  });

  it("refuses an update that follows work it cannot prove finished, and admits the same id sent again", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow"], false);
    admission.observe(["resolveActivity"], false);
    // What a live worker did in the recorded divergence: the task's events, then its update, in two activations.
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "u1")).toBe(true);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "u1")).toBe(false);
  });

  it("refuses the same id again when work came between its refusal and its return", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow"], false);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "u1")).toBe(true);
    admission.observe(["signalWorkflow"], false);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "u1")).toBe(true);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "u1")).toBe(false);
  });

  it("counts an admitted update as work: a second update after it is refused", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow"], false);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "a")).toBe(true);
    admission.observe(["doUpdate", "doUpdate"], false);
    expect(refused(admission, "a")).toBe(false);
    expect(refused(admission, "b")).toBe(true);
  });

  it("does not count queries, evictions or updates it refused as work", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow", "doUpdate"], false);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "late")).toBe(true);
    admission.observe(["queryWorkflow"], false);
    admission.observe(["doUpdate"], false); // a live-output batch its own validator refused: no admission asked
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "late")).toBe(false);
  });

  it("forgets the oldest refusals past its bound", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow"], false);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "first")).toBe(true);
    for (let n = 0; n < 64; n++) expect(refused(admission, `other-${n}`)).toBe(true);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "first")).toBe(true);
    expect(refused(admission, "other-63")).toBe(false);
  });

  it("counts nothing a replay took as work: the first live activation admits an update it holds alone", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow", "doUpdate"], true);
    admission.observe(["resolveActivity"], true);
    admission.observe(["resolveActivity", "fireTimer"], true);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "after-takeover")).toBe(false);
  });

  it("still refuses an update whose live activation, or an earlier live one, did work", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow"], true);
    admission.observe(["resolveActivity", "doUpdate"], false);
    expect(refused(admission, "with-work")).toBe(true);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "after-work")).toBe(true);
  });

  it("refuses an update a cold worker takes with a finished task's signal, and admits it after a task boundary", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow", "doUpdate"], true);
    // What a worker without the session cached is given: a finished task that made no command, with the update.
    admission.observe(["signalWorkflow", "doUpdate"], false);
    expect(refused(admission, "after-signal")).toBe(true);
    // A worker without a cache forgets that refusal; the client's taskBoundary signal separates the next attempt.
    const cold = new UpdateAdmission();
    cold.observe(["initializeWorkflow", "doUpdate"], true);
    cold.observe(["signalWorkflow"], true);
    cold.observe([TASK_BOUNDARY_JOB, "doUpdate"], false);
    expect(refused(cold, "after-signal")).toBe(false);
  });

  it("counts a task boundary as no work on a caching worker either", () => {
    const admission = new UpdateAdmission();
    admission.observe(["initializeWorkflow"], false);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "u1")).toBe(true);
    admission.observe([TASK_BOUNDARY_JOB], false);
    admission.observe(["doUpdate"], false);
    expect(refused(admission, "u1")).toBe(false);
  });
});
