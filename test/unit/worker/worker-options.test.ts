import { describe, expect, it } from "vitest";
import { defineAgent } from "../../../src/define-agent.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn } from "../../../src/testing/builders.js";
import { createWorker } from "../../../src/worker.js";

const chat = defineAgent({ name: "chat", model: "chat" });

describe("createWorker: options it refuses before it connects", () => {
  it("a worker without a workflow cache, saying why", async () => {
    const error = await createWorker({
      agents: [chat],
      providers: { chat: fakeProvider([textTurn("ok")]) },
      workerOptions: { maxCachedWorkflows: 0 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/maxCachedWorkflows must be 1 or more: .* refuses every update/);
  });
});
