import { describe, expect, it } from "vitest";
import { taskForkId } from "../../../src/kernel/builtin-tools/delegate-tool.js";
import { idDigest } from "../../../src/kernel/hash/index.js";

describe("ids from model output carry a digest, not the text", () => {
  const callId = "call_the customer's card is 4111 1111";

  it("idDigest is 16 hex digits, the same for the same text and different for another", () => {
    expect(idDigest(callId)).toMatch(/^[0-9a-f]{16}$/);
    expect(idDigest(callId)).toBe(idDigest(callId));
    expect(idDigest(`${callId}.`)).not.toBe(idDigest(callId));
  });

  it("a task's fork id (a child workflow id) holds no text of the call id", () => {
    const forkId = taskForkId(callId, 1);
    expect(forkId).toBe(`task-${idDigest(callId)}-2`);
    expect(forkId).not.toContain("card");
  });
});
