import type { TestSpecification, Vitest } from "vitest/node";
import { describe, expect, it } from "vitest";
import LongestFirst, { LONGEST_FILES } from "../../support/longest-first.js";

const ROOT = "/project";

/** A file of the group `groupOrder`, as vitest hands it to a sequencer. */
function spec(path: string, groupOrder: number): TestSpecification {
  const project = { name: `group-${groupOrder}`, config: { sequence: { groupOrder }, isolate: true } };
  return { moduleId: `${ROOT}/${path}`, project } as unknown as TestSpecification;
}

const sequencer = () => new LongestFirst({ config: { root: ROOT } } as unknown as Vitest);

const paths = (files: TestSpecification[]) => files.map((file) => file.moduleId.slice(ROOT.length + 1));

describe("LongestFirst", () => {
  it("starts the longest files of a group first, longest first, and keeps the groups in order", async () => {
    const files = [
      spec("test/unit/a.test.ts", 0),
      spec("test/e2e/chaos.test.ts", 1),
      spec(LONGEST_FILES[2]!, 0),
      spec("test/unit/b.test.ts", 0),
      spec(LONGEST_FILES[0]!, 0),
    ];
    expect(paths(await sequencer().sort(files))).toEqual([
      LONGEST_FILES[0],
      LONGEST_FILES[2],
      "test/unit/a.test.ts",
      "test/unit/b.test.ts",
      "test/e2e/chaos.test.ts",
    ]);
  });

  it("names only files that exist", async () => {
    const { existsSync } = await import("node:fs");
    expect(LONGEST_FILES.filter((path) => !existsSync(path))).toEqual([]);
  });
});
