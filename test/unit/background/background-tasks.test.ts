import { describe, expect, it, vi } from "vitest";
import { createBackgroundTasks } from "../../../src/kernel/background/background-tasks.js";
import type { BackgroundOutcome, BackgroundTasks } from "../../../src/kernel/background/types.js";
import { AgentError } from "../../../src/kernel/vocabulary/errors.js";
import type { AbortSignalLike } from "../../../src/kernel/vocabulary/ports.js";
import { deferred, fakePorts, flush, type Deferred } from "./fake-ports.js";

function registry(options: Partial<Parameters<typeof createBackgroundTasks>[0]> = {}): BackgroundTasks {
  return createBackgroundTasks({
    emit: () => {},
    signal: new AbortController().signal,
    ...fakePorts(),
    ...options,
  });
}

/** A task that settles when the test says so, and records the signal it was given. */
function controlled(): { gate: Deferred<BackgroundOutcome>; signal: () => AbortSignalLike | undefined } & {
  run: (signal: AbortSignalLike) => Promise<BackgroundOutcome>;
} {
  const gate = deferred<BackgroundOutcome>();
  let seen: AbortSignalLike | undefined;
  return {
    gate,
    signal: () => seen,
    run: (signal) => {
      seen = signal;
      return gate.promise;
    },
  };
}

/** A task that rejects with its abort reason as soon as it is aborted. */
function abortable(signal: AbortSignalLike): Promise<string> {
  return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
}

describe("createBackgroundTasks", () => {
  it("gives unique ids bg_<base36 counter>_<6 hex>", () => {
    const { ports } = fakePorts([0, 0.5, 0.999999]);
    const tasks = registry({ ports });
    const ids = Array.from(
      { length: 37 },
      (_, n) => tasks.spawn({ label: `t${n}`, run: () => new Promise(() => {}) }).id,
    );
    expect(new Set(ids).size).toBe(37);
    for (const id of ids) expect(id).toMatch(/^bg_[0-9a-z]+_[0-9a-f]{6}$/);
    expect(ids.slice(0, 3)).toEqual(["bg_0_000000", "bg_1_800000", "bg_2_ffffef"]);
    expect(ids[36]).toMatch(/^bg_10_/);
  });

  it("joins a joinable task and records a completed, non-error completion", async () => {
    const tasks = registry();
    const task = controlled();
    const handle = tasks.spawn({ label: "build", run: task.run });
    expect(handle.label).toBe("build");
    expect(tasks.pendingJoinable()).toBe(1);
    expect(tasks.hasCompleted()).toBe(false);
    task.gate.resolve("built");
    await tasks.waitNextJoinable();
    expect(tasks.pendingJoinable()).toBe(0);
    expect(tasks.takeCompleted()).toEqual([
      { id: handle.id, label: "build", content: "built", status: "completed", isError: false },
    ]);
  });

  it("counts joinable and detached tasks apart, and only live ones", async () => {
    const tasks = registry();
    const joinable = controlled();
    const detached = controlled();
    tasks.spawn({ label: "j", run: joinable.run });
    tasks.spawn({ label: "d1", kind: "detached", run: detached.run });
    tasks.spawn({ label: "d2", kind: "detached", run: () => new Promise(() => {}) });
    expect([tasks.pendingJoinable(), tasks.pendingDetached()]).toEqual([1, 2]);
    detached.gate.resolve("served");
    await flush();
    expect([tasks.pendingJoinable(), tasks.pendingDetached()]).toEqual([1, 1]);
    expect(tasks.hasCompleted()).toBe(true);
  });

  it("throws an AgentError naming the limit when maxTotal, maxJoinable or maxDetached is reached", async () => {
    const forever = (): Promise<string> => new Promise(() => {});
    const total = registry({ limits: { maxTotal: 2 } });
    total.spawn({ label: "a", run: forever });
    total.spawn({ label: "b", kind: "detached", run: forever });
    expect(() => total.spawn({ label: "c", run: forever })).toThrow(/limit reached.*maxTotal 2/);

    const perKind = registry({ limits: { maxJoinable: 1, maxDetached: 1 } });
    const first = controlled();
    perKind.spawn({ label: "j1", run: first.run });
    perKind.spawn({ label: "d1", kind: "detached", run: forever });
    expect(() => perKind.spawn({ label: "j2", run: forever })).toThrow(AgentError);
    expect(() => perKind.spawn({ label: "j2", run: forever })).toThrow(
      /1 joinable tasks are running \(maxJoinable 1\)/,
    );
    expect(() => perKind.spawn({ label: "d2", kind: "detached", run: forever })).toThrow(/maxDetached 1/);

    first.gate.resolve("done");
    await flush();
    expect(() => perKind.spawn({ label: "j3", run: forever })).not.toThrow();
  });

  it("aborts a task that outlives maxTaskMs and marks it failed with a timeout message", async () => {
    const { ports, sleeps } = fakePorts();
    const tasks = registry({ ports, limits: { maxTaskMs: 50 } });
    const task = controlled();
    const { id } = tasks.spawn({ label: "slow", run: task.run });
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([50]);
    sleeps[0]?.fire();
    await flush();
    expect(task.signal()?.aborted).toBe(true);
    expect(tasks.pendingJoinable()).toBe(0);
    task.gate.resolve("too late");
    await flush();
    expect(tasks.takeCompleted()).toEqual([
      {
        id,
        label: "slow",
        content: "Error: background task timed out after 50ms",
        status: "failed",
        isError: true,
      },
    ]);
  });

  it("cancels the maxTaskMs sleep when the task ends first", async () => {
    const { ports, sleeps } = fakePorts();
    const tasks = registry({ ports, limits: { maxTaskMs: 50 } });
    tasks.spawn({ label: "quick", run: async () => "ok" });
    await flush();
    expect(sleeps[0]?.signal?.aborted).toBe(true);
    sleeps[0]?.fire();
    await flush();
    expect(tasks.takeCompleted().map((c) => c.status)).toEqual(["completed"]);
  });

  it("turns a thrown error into a failed completion with content Error: <message>", async () => {
    const tasks = registry();
    tasks.spawn({
      label: "crash",
      run: async () => {
        throw new Error("boom");
      },
    });
    await tasks.waitNextJoinable();
    const [completion] = tasks.takeCompleted();
    expect(completion).toMatchObject({ content: "Error: boom", status: "failed", isError: true });
  });

  it("keeps the status of an outcome object and flags awaitIdle only when opted out", async () => {
    const seen: string[] = [];
    const tasks = registry({ onCompleted: (c) => seen.push(c.id) });
    const partial = tasks.spawn({
      label: "group",
      run: async () => ({ content: "2 of 3", status: "partial" }),
    });
    const daemon = tasks.spawn({
      label: "serve",
      kind: "detached",
      awaitIdle: false,
      run: async () => "stopped",
    });
    await flush();
    const [first, second] = tasks.takeCompleted();
    expect(first).toEqual({
      id: partial.id,
      label: "group",
      content: "2 of 3",
      status: "partial",
      isError: true,
    });
    expect(second).toMatchObject({ id: daemon.id, status: "completed", isError: false, awaitIdle: false });
    expect(seen).toEqual([partial.id, daemon.id]);
  });

  it("cancel aborts one task and marks it cancelled; unknown or finished ids return false", async () => {
    const tasks = registry();
    const victim = tasks.spawn({ label: "victim", run: abortable });
    const bystander = controlled();
    tasks.spawn({ label: "bystander", run: bystander.run });
    expect(tasks.cancel(victim.id)).toBe(true);
    await flush();
    expect(bystander.signal()?.aborted).toBe(false);
    expect(tasks.takeCompleted()).toEqual([
      {
        id: victim.id,
        label: "victim",
        content: "Error: background task cancelled",
        status: "cancelled",
        isError: true,
      },
    ]);
    expect(tasks.cancel(victim.id)).toBe(false);
    expect(tasks.cancel("bg_nope_000000")).toBe(false);
  });

  it("cancelAll cancels every live task, and a string returned after cancel is still cancelled", async () => {
    const tasks = registry();
    tasks.spawn({ label: "a", run: abortable });
    tasks.spawn({
      label: "b",
      kind: "detached",
      run: (signal) =>
        new Promise((resolve) => signal.addEventListener("abort", () => resolve("stopped early"))),
    });
    tasks.cancelAll();
    await flush();
    expect([tasks.pendingJoinable(), tasks.pendingDetached()]).toEqual([0, 0]);
    const completions = tasks.takeCompleted();
    expect(completions.map((c) => [c.label, c.status])).toEqual([
      ["a", "cancelled"],
      ["b", "cancelled"],
    ]);
    expect(completions[1]?.content).toBe("stopped early");
  });

  it("cancels everything when the registry's signal aborts, and starts later spawns cancelled", async () => {
    const owner = new AbortController();
    const tasks = registry({ signal: owner.signal });
    tasks.spawn({ label: "joinable", run: abortable });
    tasks.spawn({ label: "detached", kind: "detached", run: abortable });
    owner.abort();
    await flush();
    expect(tasks.takeCompleted().map((c) => c.status)).toEqual(["cancelled", "cancelled"]);

    const run = vi.fn(async () => "never");
    tasks.spawn({ label: "late", run });
    expect(run).not.toHaveBeenCalled();
    expect(tasks.pendingJoinable()).toBe(0);
    expect(tasks.takeCompleted()).toMatchObject([{ label: "late", status: "cancelled" }]);
  });

  it("takeCompleted returns completions in completion order and clears them", async () => {
    const tasks = registry();
    const first = controlled();
    const second = controlled();
    tasks.spawn({ label: "first", run: first.run });
    tasks.spawn({ label: "second", kind: "detached", run: second.run });
    second.gate.resolve("2");
    await flush();
    first.gate.resolve("1");
    await flush();
    expect(tasks.hasCompleted()).toBe(true);
    expect(tasks.takeCompleted().map((c) => c.label)).toEqual(["second", "first"]);
    expect(tasks.hasCompleted()).toBe(false);
    expect(tasks.takeCompleted()).toEqual([]);
  });
});

describe("waitNextJoinable", () => {
  it("resolves at once when an undelivered joinable completion exists", async () => {
    const tasks = registry();
    tasks.spawn({ label: "done", run: async () => "ok" });
    tasks.spawn({ label: "running", run: () => new Promise(() => {}) });
    await flush();
    let resolved = false;
    void tasks.waitNextJoinable().then(() => (resolved = true));
    await flush();
    expect(resolved).toBe(true);
  });

  it("waits for a later joinable completion, not for a detached one", async () => {
    const tasks = registry();
    const joinable = controlled();
    const detached = controlled();
    tasks.spawn({ label: "j", run: joinable.run });
    tasks.spawn({ label: "d", kind: "detached", run: detached.run });
    let resolved = false;
    void tasks.waitNextJoinable().then(() => (resolved = true));
    detached.gate.resolve("d");
    await flush();
    expect(resolved).toBe(false);
    joinable.gate.resolve("j");
    await flush();
    expect(resolved).toBe(true);
  });

  it("resolves (does not reject) when its signal aborts, and at once when nothing joinable runs", async () => {
    const tasks = registry();
    let idle = false;
    void tasks.waitNextJoinable().then(() => (idle = true));
    await flush();
    expect(idle).toBe(true);

    tasks.spawn({ label: "stuck", run: () => new Promise(() => {}) });
    const waiter = new AbortController();
    let outcome = "pending";
    tasks.waitNextJoinable(waiter.signal).then(
      () => (outcome = "resolved"),
      () => (outcome = "rejected"),
    );
    await flush();
    expect(outcome).toBe("pending");
    waiter.abort();
    await flush();
    expect(outcome).toBe("resolved");
    expect(tasks.pendingJoinable()).toBe(1);
  });
});

describe("read and listDetached", () => {
  it("returns only the output written since the last read, with done once the task ends", async () => {
    const tasks = registry();
    const task = controlled();
    let write: (chunk: string) => void = () => {};
    const { id } = tasks.spawn({
      label: "tail",
      kind: "detached",
      run: (signal, _emit, writer) => {
        write = writer;
        return task.run(signal);
      },
    });
    write("one\n");
    write("two\n");
    expect(tasks.read(id)).toEqual({ output: "one\ntwo\n", done: false });
    write("three\n");
    expect(tasks.read(id)).toEqual({ output: "three\n", done: false });
    expect(tasks.listDetached()).toEqual([{ id, label: "tail", done: false }]);
    task.gate.resolve("exit 0");
    await flush();
    expect(tasks.read(id)).toEqual({ output: "", done: true });
    expect(tasks.listDetached()).toEqual([{ id, label: "tail", done: true }]);
  });

  it("prefixes [\u2026truncated] when the ring dropped unread output, and filters lines", () => {
    const tasks = registry({ limits: { bufferBytes: 10 } });
    let write: (chunk: string) => void = () => {};
    const { id } = tasks.spawn({
      label: "log",
      kind: "detached",
      run: (_signal, _emit, writer) => {
        write = writer;
        return new Promise(() => {});
      },
    });
    write("0123456789");
    write("ab\ncd");
    expect(tasks.read(id)).toEqual({ output: "[\u2026truncated]\n56789ab\ncd", done: false });
    const errors = /^err/g;
    write("\nerr1\nok");
    expect(tasks.read(id, { filter: errors })).toEqual({ output: "err1", done: false });
    write("\nerr2\nerr3");
    expect(tasks.read(id, { filter: errors })).toEqual({ output: "err2\nerr3", done: false });
  });

  it("returns null for unknown and joinable ids", () => {
    const tasks = registry();
    const joinable = tasks.spawn({ label: "j", run: () => new Promise(() => {}) });
    expect(tasks.read(joinable.id)).toBeNull();
    expect(tasks.read("bg_x_000000")).toBeNull();
    expect(tasks.listDetached()).toEqual([]);
  });
});
