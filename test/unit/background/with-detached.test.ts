import { describe, expect, it } from "vitest";
import { createBackgroundTasks } from "../../../src/kernel/background/background-tasks.js";
import type { BackgroundLimits, BackgroundTasks } from "../../../src/kernel/background/types.js";
import { withDetached } from "../../../src/kernel/background/with-detached.js";
import { deferred, fakePorts, flush } from "./fake-ports.js";

function registry(limits: BackgroundLimits): BackgroundTasks {
  return createBackgroundTasks({
    emit: () => {},
    signal: new AbortController().signal,
    ...fakePorts(),
    limits,
  });
}

const forever = (): Promise<string> => new Promise(() => {});

describe("withDetached", () => {
  it("sends detached tasks to the owner's registry and joinable ones to the run's", () => {
    const run = registry({});
    const owner = registry({});
    const tasks = withDetached(run, owner);
    tasks.spawn({ label: "j", run: forever });
    tasks.spawn({ label: "d", kind: "detached", run: forever });
    expect([run.pendingJoinable(), run.pendingDetached()]).toEqual([1, 0]);
    expect([owner.pendingJoinable(), owner.pendingDetached()]).toEqual([0, 1]);
  });

  it("counts both registries' running tasks against maxTotal, as one registry would", async () => {
    const limits = { maxTotal: 2 };
    const owner = registry(limits);
    const first = deferred<string>();
    withDetached(registry(limits), owner, 2).spawn({
      label: "d1",
      kind: "detached",
      run: () => first.promise,
    });
    // A later run of the session: its own registry is empty, the owner's detached task still runs.
    const run = registry(limits);
    const tasks = withDetached(run, owner, 2);
    tasks.spawn({ label: "j1", run: forever });
    expect(() => tasks.spawn({ label: "j2", run: forever })).toThrow(
      "Background task limit reached: 2 tasks are running (maxTotal 2).",
    );
    expect(() => tasks.spawn({ label: "d2", kind: "detached", run: forever })).toThrow(/maxTotal 2/);
    expect([run.pendingJoinable(), owner.pendingDetached()]).toEqual([1, 1]);
    first.resolve("done");
    await flush();
    expect(() => tasks.spawn({ label: "d3", kind: "detached", run: forever })).not.toThrow();
  });

  it("without maxTotal each registry only checks its own limits", () => {
    const limits = { maxTotal: 1 };
    const owner = registry(limits);
    const tasks = withDetached(registry(limits), owner);
    tasks.spawn({ label: "d1", kind: "detached", run: forever });
    expect(() => tasks.spawn({ label: "j1", run: forever })).not.toThrow();
  });
});
