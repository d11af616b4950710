import { relative } from "node:path";
import type { TestSequencer, TestSpecification, Vitest } from "vitest/node";

/**
 * The suite's longest files, longest first, as measured in CI (seconds on two cores under the suite's load; the
 * workflow suites without a workflow cache, as npm test runs them): started first, they run beside the many short ones instead of alone at the end of the parallel phase.
 */
export const LONGEST_FILES = [
  "test/e2e/long-run.test.ts", // 200, with a cache
  "test/e2e/cli.test.ts", // 130
  "test/e2e/authorised-approvers.test.ts", // 125 (20 with a cache)
  "test/e2e/worker-versioning.test.ts", // 75
  "test/e2e/fast-recovery.test.ts", // 65
  "test/e2e/durable-crash.test.ts", // 60
  "test/e2e/both-drivers.test.ts", // 60
  "test/e2e/background-groups.test.ts", // 50
  "test/e2e/demo.test.ts", // 50
  "test/e2e/mcp-tools.test.ts", // 50
  "test/e2e/streaming.test.ts", // 50
  "test/e2e/search-attributes.test.ts", // 45
  "test/package/installed-package.test.ts", // 45
  "test/e2e/durable-compaction.test.ts", // 40
  "test/workflow/waiting-run-moves.test.ts", // 40
  "test/workflow/sdk-buffered-query.test.ts", // 40, with a cache
  "test/e2e/tool-fork.test.ts", // 40
  "test/e2e/update-bursts.test.ts", // 70, with a cache
  "test/e2e/followed-streaming.test.ts", // 35, with a cache
  "test/workflow/bundle.test.ts", // 35
];

/**
 * Vitest's sequencer for this suite: files in their groups' order (`sequence.groupOrder`), and within a group the
 * files in {@link LONGEST_FILES} first, the rest in the order vitest found them. A clean checkout has no results cache,
 * so vitest's own sequencer would start the largest files first, and the longest are not the largest: the last
 * minutes of a run would be one long file alone. The suite is not sharded.
 */
export default class LongestFirst implements TestSequencer {
  constructor(private readonly ctx: Vitest) {}

  sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FILES.indexOf(relative(this.ctx.config.root, file.moduleId));
      return index === -1 ? LONGEST_FILES.length : index;
    };
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    // Stable: files of one rank keep vitest's order.
    const sorted = files
      .map((file, position) => ({ file, position }))
      .sort(
        (a, b) => group(a.file) - group(b.file) || rank(a.file) - rank(b.file) || a.position - b.position,
      );
    return Promise.resolve(sorted.map(({ file }) => file));
  }

  shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return Promise.resolve(files);
  }
}
