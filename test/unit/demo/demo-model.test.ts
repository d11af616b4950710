import { describe, expect, it } from "vitest";
import { chooseDemoModel, DEFAULT_OPENAI_MODEL } from "../../../src/demo/demo-model.js";
import { SCRIPTED_MODEL_ID } from "../../../src/demo/demo-script.js";

describe("chooseDemoModel", () => {
  it("uses the scripted model and says why when no OpenAI endpoint is configured", () => {
    const model = chooseDemoModel({ OPENAI_API_KEY: "" });
    expect(model).toMatchObject({ id: SCRIPTED_MODEL_ID, scripted: true });
    expect(model.notice).toContain("no OpenAI key is configured");
  });

  it("uses the OpenAI provider with OPENAI_MODEL when a key or a base URL is set", () => {
    const byKey = chooseDemoModel({ OPENAI_API_KEY: "sk-test" });
    expect(byKey).toMatchObject({ id: DEFAULT_OPENAI_MODEL, scripted: false });
    expect(byKey.provider.id).toBe("openai");
    const byUrl = chooseDemoModel({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1", OPENAI_MODEL: "qwen3" });
    expect(byUrl).toMatchObject({ id: "qwen3", scripted: false });
    expect(byUrl.notice).toBe("Model: qwen3 through the OpenAI provider at http://127.0.0.1:1/v1.");
  });

  it("uses the scripted model when forced, whatever the environment", () => {
    const model = chooseDemoModel({ OPENAI_API_KEY: "sk-test" }, true);
    expect(model.scripted).toBe(true);
    expect(model.notice).toContain("--scripted was given");
  });
});
