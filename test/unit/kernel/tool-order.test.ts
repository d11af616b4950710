import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent } from "../../../src/agent.js";
import { jsonCodec, nativeCodec } from "../../../src/kernel/codecs/index.js";
import { defineTool } from "../../../src/kernel/vocabulary/tools.js";
import { sortedToolSpecs } from "../../../src/kernel/phases/sorted-tool-specs.js";
import { fakeProvider } from "../../../src/providers/fake-provider.js";
import { textTurn, toolCallTurn } from "../../../src/testing/builders.js";

const named = (name: string) =>
  defineTool({ name, description: `the ${name} tool`, schema: z.object({}), execute: () => name });
// Registered out of order on purpose; `Zeta` sorts before `alpha` by code unit, as in Go's sort.Strings.
const tools = [named("zeta"), named("alpha"), named("Zeta"), named("mid")];

describe("tools in model requests", () => {
  it("are sorted by name, whatever order they were registered in (the Go seed's registry order)", async () => {
    const model = fakeProvider([textTurn("ok")]);
    await createAgent({ model, codec: nativeCodec(), tools }).send("go");
    expect(model.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["Zeta", "alpha", "mid", "zeta"]);
  });

  it("are the same array in every request of a run, so a request's delta never carries them again", async () => {
    const model = fakeProvider([toolCallTurn([{ id: "1", name: "mid", input: {} }]), textTurn("ok")]);
    await createAgent({ model, codec: nativeCodec(), tools }).send("go");
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.tools).toBe(model.requests[0]!.tools);
  });

  it("are listed sorted by a codec that renders them into the prompt", async () => {
    const model = fakeProvider([textTurn("ok")]);
    await createAgent({ model, codec: jsonCodec(), tools }).send("go");
    const prompt = model.requests[0]!.system ?? "";
    const positions = ["Zeta", "alpha", "mid", "zeta"].map((name) => prompt.indexOf(`the ${name} tool`));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("sortedToolSpecs keeps each spec whole and leaves the registration array alone", () => {
    const registered = [...tools];
    const specs = sortedToolSpecs(registered);
    expect(specs[0]).toEqual({ name: "Zeta", description: "the Zeta tool", parameters: expect.any(Object) });
    expect(registered.map((tool) => tool.name)).toEqual(["zeta", "alpha", "Zeta", "mid"]);
  });
});
