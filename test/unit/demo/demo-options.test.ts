import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROMPT, DEMO_TASK_QUEUE, parseDemoOptions } from "../../../src/demo/demo-options.js";

describe("parseDemoOptions", () => {
  it("defaults to the project's .cache folder, the default prompt and no --keep", () => {
    const options = parseDemoOptions([], {}, "/project");
    expect(options).toEqual({
      prompt: DEFAULT_PROMPT,
      keep: false,
      scripted: false,
      yes: false,
      help: false,
      cacheDir: "/project/.cache",
      dbFile: path.join("/project/.cache", "temporal", "demo.db"),
      sandboxDir: path.join("/project/.cache", "demo", "sandbox"),
      taskQueue: DEMO_TASK_QUEUE,
      uiUrl: undefined,
    });
  });

  it("joins the positional words into the prompt and reads the flags", () => {
    const options = parseDemoOptions(["--keep", "how", "many", "rows?", "--scripted"], {}, "/p");
    expect(options).toMatchObject({ prompt: "how many rows?", keep: true, scripted: true });
  });

  it("takes the cache folder from --cache-dir before DEMO_CACHE_DIR", () => {
    expect(parseDemoOptions([], { DEMO_CACHE_DIR: "/tmp/c" }, "/p").dbFile).toBe("/tmp/c/temporal/demo.db");
    expect(parseDemoOptions(["--cache-dir", "rel"], { DEMO_CACHE_DIR: "/tmp/c" }, "/p").sandboxDir).toBe(
      "/p/rel/demo/sandbox",
    );
  });

  it("reads DEMO_KEEP and TEMPORAL_UI_URL from the environment", () => {
    expect(parseDemoOptions([], { DEMO_KEEP: "1", TEMPORAL_UI_URL: "http://ui:8080" }, "/p")).toMatchObject({
      keep: true,
      uiUrl: "http://ui:8080",
    });
  });

  it("takes --yes (-y) or DEMO_YES=1 to approve the report write without asking", () => {
    expect(parseDemoOptions(["-y"], {}, "/p").yes).toBe(true);
    expect(parseDemoOptions(["--yes"], {}, "/p").yes).toBe(true);
    expect(parseDemoOptions([], { DEMO_YES: "1" }, "/p").yes).toBe(true);
    expect(parseDemoOptions([], {}, "/p").yes).toBe(false);
  });

  it("refuses an unknown option", () => {
    expect(() => parseDemoOptions(["--nope"], {}, "/p")).toThrow("Unknown option '--nope'");
  });
});
